"""OAuth2 and Activities: the token exchange of an Activity's sign-in, and the instances
running."""

from __future__ import annotations

from ..errors import DiscordError
from ..rest import Call, RestApi, Result, route


@route("POST", "/oauth2/token")
async def oauth2_token(api: RestApi, call: Call) -> Result:
    form = call.body if isinstance(call.body, dict) else {}
    return api.fake.activities.exchange({k: str(v) for k, v in form.items()})


@route("GET", "/applications/{application_id}/activity-instances/{instance_id}")
async def activity_instance(api: RestApi, call: Call) -> Result:
    app = api.app(call)
    instance = api.fake.activities.instances.get(call.params["instance_id"])
    if instance is None:
        raise DiscordError(0)  # 404: no such instance running (ended, or never was)
    return 200, instance.to_json(app)
