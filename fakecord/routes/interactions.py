"""Interactions and their webhooks: the callback that acknowledges one, its follow-ups, and
the messages its token reaches."""

from __future__ import annotations

from typing import Any

from ..errors import DiscordError, invalid_form
from ..interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE,
    LAUNCH_ACTIVITY,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    Interaction,
)
from ..messages import Upload, apply_edit, fill_new
from ..models import EPHEMERAL, LOADING, Message
from ..rest import NO_CONTENT, Call, RestApi, Result, route


def interaction_for(api: RestApi, call: Call) -> Interaction:
    """The interaction behind a callback or webhook route, with Discord's checks."""
    if "interaction_id" in call.params:
        inter = api.fake.interactions.get(call.int_param("interaction_id"))
        if inter is None or inter.token != call.params["interaction_token"]:
            raise DiscordError(10062)
        return inter
    inter = api.fake.interactions_by_token.get(call.params["webhook_token"])
    if inter is None or call.params["webhook_id"] != str(api.fake.app_id):
        raise DiscordError(10015)
    # "Interaction tokens are valid for 15 minutes" (Discord API docs, Interactions >
    # Receiving and Responding), on the double's clock, which tests move forward.
    if inter.expired(api.fake.clock.now()):
        raise DiscordError(50027)
    return inter


def _answer(
    api: RestApi,
    inter: Interaction,
    body: dict[str, Any],
    uploads: list[Upload],
    *,
    loading: bool = False,
    followup: bool = False,
) -> Message:
    """A message posted through the interaction (its answer or a follow-up)."""
    msg = api.new_message(
        inter.channel,
        ephemeral_for=inter.user.id if int(body.get("flags") or 0) & EPHEMERAL else None,
        interaction_token=inter.token,
        interaction=(inter.id, inter.type, inter.user, inter.command_name),
        webhook_id=api.fake.app_id,
        application_id=api.fake.app_id,
        type=20 if inter.type == APPLICATION_COMMAND else 19,
    )
    if loading:
        msg.flags = LOADING | (int(body.get("flags") or 0) & EPHEMERAL)
    else:
        fill_new(api.store, msg, body, uploads, api.fake.url_root)
    if inter.type != APPLICATION_COMMAND and inter.source_message is not None:
        msg.message_reference = {
            "type": 0,
            "message_id": str(inter.source_message.id),
            "channel_id": str(inter.channel.id),
        }
    if followup:
        msg.type = 0
    return api.store.add_message(msg)


@route("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
async def callback(api: RestApi, call: Call) -> Result:
    inter = interaction_for(api, call)
    now = api.fake.clock.now()
    if inter.ack_type is not None:
        raise DiscordError(40060)
    if inter.too_late_to_ack(now):
        raise DiscordError(10062, detail=f"acknowledged {now - inter.created_at:.1f}s late")
    kind = int(call.body["type"])
    data = call.body.get("data") or {}
    on_message = inter.type == MESSAGE_COMPONENT or (
        inter.source_message is not None and inter.type != APPLICATION_COMMAND
    )
    if kind in (DEFERRED_UPDATE, UPDATE_MESSAGE) and not on_message:
        why = f"Callback type {kind} needs a message component interaction"
        raise invalid_form("type", "INTERACTION_RESPONSE_TYPE_INVALID", why)
    if (kind == AUTOCOMPLETE_RESULT) != (inter.type == AUTOCOMPLETE):
        why = "Autocomplete interactions take callback type 8, and only they do"
        raise invalid_form("type", "INTERACTION_RESPONSE_TYPE_INVALID", why)
    if kind == MODAL and inter.type == MODAL_SUBMIT:
        raise invalid_form("type", "INTERACTION_RESPONSE_TYPE_INVALID", "A modal cannot open one")
    resource: Message | None = None
    if kind == CHANNEL_MESSAGE:
        resource = inter.response = _answer(api, inter, data, call.uploads)
        await api.announce("MESSAGE_CREATE", resource)
    elif kind == DEFERRED_CHANNEL_MESSAGE:
        resource = inter.response = _answer(api, inter, data, [], loading=True)
        await api.announce("MESSAGE_CREATE", resource)
    elif kind == DEFERRED_UPDATE:
        inter.response = inter.source_message
    elif kind == UPDATE_MESSAGE:
        assert inter.source_message is not None
        if inter.source_message.deleted:
            raise DiscordError(10008)
        resource = inter.response = apply_edit(
            api.store, inter.source_message, data, call.uploads, api.fake.url_root
        )
        await api.announce("MESSAGE_UPDATE", resource)
    elif kind == MODAL:
        inter.modal = data
    elif kind == AUTOCOMPLETE_RESULT:
        inter.choices = list(data.get("choices") or [])
    elif kind == LAUNCH_ACTIVITY:
        # "Launch the Activity associated with the app. Only available for apps with
        # Activities enabled" (Interactions > Receiving and Responding, callback type 12):
        # the person who clicked joins the channel's instance (one is made if none runs).
        if not api.fake.activities.enabled:
            why = "This application does not have Activities enabled"
            raise invalid_form("type", "INTERACTION_RESPONSE_TYPE_INVALID", why)
        if inter.type not in (APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT):
            why = "Callback type 12 answers a command, a component or a modal"
            raise invalid_form("type", "INTERACTION_RESPONSE_TYPE_INVALID", why)
        launched = api.fake.activities.instance(inter.channel, [inter.user.id])
        inter.activity_instance_id = launched.instance_id
    else:
        raise invalid_form("type", "BASE_TYPE_CHOICES", f"Callback type {kind} unsupported")
    inter.ack_type, inter.acked_at = kind, now
    api.fake.notify_acknowledged(inter)
    if not call.flag("with_response"):
        return NO_CONTENT
    shown = inter.response
    out: dict[str, Any] = {
        "interaction": {
            "id": str(inter.id),
            "type": inter.type,
            "response_message_id": str(shown.id) if shown else None,
            "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE,
            "response_message_ephemeral": bool(shown and shown.ephemeral_for is not None),
        }
    }
    if resource is not None:
        out["resource"] = {"type": kind, "message": resource.to_json()}
    if inter.activity_instance_id is not None:
        out["interaction"]["activity_instance_id"] = inter.activity_instance_id
        out["resource"] = {
            "type": kind,
            "activity_instance": {"id": inter.activity_instance_id},
        }
    return 200, out


@route("POST", "/webhooks/{webhook_id}/{webhook_token}")
async def followup(api: RestApi, call: Call) -> Result:
    inter = interaction_for(api, call)
    if inter.ack_type is None:
        raise DiscordError(10015, detail="follow-up before the interaction was acknowledged")
    original = inter.response
    if original is not None and original.loading and not inter.followups:
        # The first follow-up after a "thinking" defer becomes the original answer.
        apply_edit(api.store, original, call.body, call.uploads, api.fake.url_root)
        original.edited_timestamp = None
        msg = original
        await api.announce("MESSAGE_UPDATE", msg)
    else:
        msg = _answer(api, inter, call.body, call.uploads, followup=True)
        await api.announce("MESSAGE_CREATE", msg)
    inter.followups.append(msg)
    return (200, msg.to_json()) if call.flag("wait") else NO_CONTENT


def _token_message(api: RestApi, call: Call, inter: Interaction) -> Message:
    """What a token reaches: its original answer (for a component acknowledged with type
    6 or 7, the message clicked) and "a message sent with that token" (Discord API docs,
    Interactions > Receiving and Responding > Followup Messages); any other message id
    is Unknown Message."""
    mid = call.params.get("message_id", "@original")
    if mid == "@original":
        msg = inter.response
        if msg is None and inter.type == MESSAGE_COMPONENT and inter.ack_type is not None:
            msg = inter.source_message
    else:
        msg = next((m for m in inter.followups if str(m.id) == mid), None)
        if msg is None and inter.response is not None and str(inter.response.id) == mid:
            msg = inter.response
    if msg is None or msg.deleted:
        raise DiscordError(10008)
    return msg


@route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
@route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def token_get(api: RestApi, call: Call) -> Result:
    return 200, _token_message(api, call, interaction_for(api, call)).to_json()


@route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
@route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def token_edit(api: RestApi, call: Call) -> Result:
    inter = interaction_for(api, call)
    msg = _token_message(api, call, inter)
    was_loading = msg.loading
    apply_edit(api.store, msg, call.body, call.uploads, api.fake.url_root)
    if was_loading:
        msg.edited_timestamp = None
    await api.announce("MESSAGE_UPDATE", msg)
    return 200, msg.to_json()


@route("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
@route("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def token_delete(api: RestApi, call: Call) -> Result:
    msg = _token_message(api, call, interaction_for(api, call))
    msg.deleted = True
    await api.announce("MESSAGE_DELETE", msg)
    return NO_CONTENT
