"""Every reach into the private side of discord.py, aiohttp and asyncio, in one place.

Each function says why no public way does the job. ``PRIVATE_ATTRIBUTES`` lists every private
(or undocumented) name they, or an override elsewhere, rely on, and ``HANDLER_TASKS`` the task
names they look for; tests/test_discord_internals.py checks each against the installed
libraries, so an upgrade that removes one fails there, by name, instead of somewhere in a
game. Nothing else in bot/ or cogs/ touches these names (tests/test_layers.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable, Callable
from typing import Any, Final, NamedTuple

import aiohttp
import discord
import yarl
from discord.gateway import DiscordWebSocket, ReconnectWebSocket
from discord.http import Route, handle_message_parameters
from discord.shard import Shard
from discord.webhook.async_ import async_context, interaction_message_response_params


class PrivateAttribute(NamedTuple):
    """One private name relied on: where it lives (module, or module.Class), and who uses it."""

    owner: str
    attribute: str
    used_by: str


PRIVATE_ATTRIBUTES: Final = (
    PrivateAttribute("discord.http.Route", "BASE", "point_at"),
    PrivateAttribute("discord.gateway.DiscordWebSocket", "DEFAULT_GATEWAY", "point_at"),
    PrivateAttribute("discord.client.Client", "http", "tune_http_session"),
    PrivateAttribute("discord.http.HTTPClient", "_HTTPClient__session", "tune_http_session"),
    PrivateAttribute("aiohttp.ClientSession", "_timeout", "tune_http_session"),
    PrivateAttribute("aiohttp.ClientSession", "_response_class", "tune_http_session"),
    PrivateAttribute("discord.http.HTTPClient", "close", "renew_http_session"),
    PrivateAttribute("discord.http.HTTPClient", "connector", "renew_http_session"),
    PrivateAttribute("discord.utils", "MISSING", "renew_http_session"),
    PrivateAttribute("discord.client.Client", "ws", "gateway_open"),
    PrivateAttribute("discord.gateway.DiscordWebSocket", "open", "gateway_open"),
    PrivateAttribute("discord.gateway.DiscordWebSocket", "close", "close_gateway"),
    PrivateAttribute("discord.client.Client", "_connection", "set_shards"),
    PrivateAttribute("discord.state.ConnectionState", "shard_count", "set_shards"),
    PrivateAttribute("discord.state.AutoShardedConnectionState", "shard_ids", "set_shards"),
    PrivateAttribute("discord.shard.AutoShardedClient", "launch_shard", "launch_shard"),
    PrivateAttribute(
        "discord.shard.AutoShardedClient", "_AutoShardedClient__shards", "launch_shard"
    ),
    PrivateAttribute("discord.shard", "Shard", "launch_shard"),
    PrivateAttribute("discord.shard.Shard", "reconnect", "launch_shard"),
    PrivateAttribute("discord.shard.Shard", "reidentify", "launch_shard"),
    PrivateAttribute("discord.gateway", "ReconnectWebSocket", "launch_shard"),
    PrivateAttribute(
        "discord.shard.AutoShardedClient", "launch_shards", "bot.process.shards (overrides it)"
    ),
    PrivateAttribute("discord.http", "handle_message_parameters", "edit_message"),
    PrivateAttribute("discord.http.HTTPClient", "edit_message", "edit_message"),
    PrivateAttribute("discord.http.HTTPClient", "delete_message", "delete_message"),
    PrivateAttribute("discord.webhook.async_.Webhook", "from_state", "interaction_webhook"),
    PrivateAttribute("discord.webhook.async_", "async_context", "edit_webhook_message"),
    PrivateAttribute(
        "discord.webhook.async_.AsyncWebhookAdapter", "edit_webhook_message", "edit_webhook_message"
    ),
    PrivateAttribute(
        "discord.webhook.async_.AsyncWebhookAdapter", "execute_webhook", "send_webhook_message"
    ),
    PrivateAttribute("discord.webhook.async_.AsyncWebhookAdapter", "request", "update_clicked"),
    PrivateAttribute(
        "discord.webhook.async_", "interaction_message_response_params", "update_clicked"
    ),
    PrivateAttribute("discord.interactions.Interaction", "_state", "update_clicked"),
    PrivateAttribute("discord.http.HTTPClient", "_HTTPClient__session", "update_clicked"),
    PrivateAttribute(
        "discord.interactions.InteractionResponse", "_response_type", "update_clicked"
    ),
    PrivateAttribute("discord.state.ConnectionState", "_view_store", "route_dynamic_items"),
    PrivateAttribute(
        "discord.ui.view.ViewStore", "schedule_dynamic_item_call", "route_dynamic_items"
    ),
    PrivateAttribute("discord.interactions.Interaction", "_cs_response", "release_interaction"),
    PrivateAttribute("discord.interactions.Interaction", "_cs_followup", "release_interaction"),
    PrivateAttribute(
        "discord.interactions.Interaction", "_original_response", "release_interaction"
    ),
    PrivateAttribute("discord.interactions.InteractionResponse", "_parent", "release_interaction"),
    PrivateAttribute("asyncio.Lock", "_waiters", "lock_contended"),
    PrivateAttribute("asyncio.Lock", "_waiters", "QueueFreeLock"),
    PrivateAttribute("discord.http.HTTPClient", "get_global_commands", "sync_commands"),
    PrivateAttribute("discord.http.HTTPClient", "get_guild_commands", "sync_commands"),
    PrivateAttribute("discord.http.HTTPClient", "bulk_upsert_global_commands", "sync_commands"),
    PrivateAttribute("discord.http.HTTPClient", "bulk_upsert_guild_commands", "sync_commands"),
    PrivateAttribute("discord.http.HTTPClient", "request", "activity_instance"),
    # Undocumented methods of View that sending a view calls, overridden by PrebuiltView.
    PrivateAttribute("discord.ui.view.View", "to_components", "PrebuiltView"),
    PrivateAttribute("discord.ui.view.View", "is_dispatchable", "PrebuiltView"),
    PrivateAttribute("discord.ui.view.View", "has_components_v2", "PrebuiltView"),
)


class TaskName(NamedTuple):
    """The start of the name discord.py gives a task it creates (in ``module``'s source)."""

    module: str
    prefix: str


#: The tasks that run a received interaction's handlers (a graceful stop waits for them).
#: Undocumented names, so each is checked against discord.py's source too.
HANDLER_TASKS: Final = (
    TaskName("discord.ui.view", "discord-ui-dynamic-item-"),
    TaskName("discord.ui.view", "discord-ui-view-dispatch-"),  # a View's own item callbacks
    TaskName("discord.app_commands.tree", "CommandTree-invoker"),
    TaskName("discord.client", "discord.py: "),
)


# -- where Discord is -------------------------------------------------------------------------


def point_at(api_base: str, gateway_url: str) -> None:
    """Point discord.py at these REST and gateway URLs (a proxy, or a test double).

    discord.py has no option for either: it reads both from class attributes, so this is
    process-wide."""
    Route.BASE = api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


async def activity_instance(client: discord.Client, application_id: int, instance_id: str) -> Any:
    """``GET /applications/{app}/activity-instances/{id}`` with the bot's token, through
    discord.py's own HTTP client: the bot's global rate limit (discord.py holds every request
    while a global 429 lasts), its session and ``DISCORD_API_BASE`` (the shared proxy where it
    runs). discord.py has no method for this route. None for 404 (no such instance)."""
    route = Route(
        "GET",
        "/applications/{application_id}/activity-instances/{instance_id}",
        application_id=application_id,
        instance_id=instance_id,
    )
    try:
        return await client.http.request(route)
    except discord.NotFound:
        return None


# -- the HTTP session -------------------------------------------------------------------------


def tune_http_session(
    client: discord.Client,
    timeout: float,
    response_class: type[aiohttp.ClientResponse] | None = None,
) -> None:
    """Give the HTTP session discord.py made at login a per-read ``timeout`` (aiohttp's default
    waits 5 minutes) and, if given, a ``response_class`` (metrics). discord.py makes the
    session itself in ``static_login`` and offers no option for either; aiohttp has no public
    setter. Does nothing before login (no session yet)."""
    session = getattr(client.http, "_HTTPClient__session", None)
    if not isinstance(session, aiohttp.ClientSession):
        return
    session._timeout = aiohttp.ClientTimeout(sock_connect=timeout, sock_read=timeout)
    if response_class is not None:
        session._response_class = response_class


async def renew_http_session(client: discord.Client) -> None:
    """Close the HTTP session of a failed login so the next attempt makes a fresh one (and a
    fresh connector). ``Client.login`` reuses them, and ``Client.close`` would end the bot."""
    await client.http.close()
    client.http.connector = discord.utils.MISSING


# -- the gateway ------------------------------------------------------------------------------


def gateway_open(client: discord.Client) -> bool:
    """Connected to the gateway and ready. discord.py documents no way to ask whether the
    websocket is open (``is_closed`` is about the client)."""
    ws: DiscordWebSocket | None = client.ws
    return ws is not None and ws.open and client.is_ready()


async def close_gateway(client: discord.Client) -> None:
    """Close the gateway connection only (code 1000), keeping HTTP to answer the interactions
    already received. ``Client.close`` closes everything at once."""
    ws: DiscordWebSocket | None = client.ws
    if ws is not None and ws.open:
        await ws.close(code=1000)


def set_shards(
    client: discord.AutoShardedClient, shard_count: int | None, shard_ids: list[int]
) -> None:
    """Tell the connection state which shards this process runs. AutoShardedClient sets them
    once, in ``launch_shards``; a process whose shards change under leases must set them
    again (the state reads them to know when every shard is ready)."""
    state: Any = client._connection
    state.shard_count = shard_count
    state.shard_ids = list(shard_ids)


class _ResumingShard(Shard):
    """A shard that RESUMEs after a failed reconnection instead of IDENTIFYing again.

    discord.py's shard RESUMEs when its socket closes with a code that allows it, but when
    that attempt fails (Discord unreachable for a moment: connection refused, a timeout) its
    ``reconnect`` IDENTIFYs anew, dropping a session Discord still keeps, its missed events
    with it, and spending the identify budget (1,000 a day). Discord: "Resuming" and
    "Session Start Limit" (https://discord.com/developers/docs/events/gateway#resuming,
    https://discord.com/developers/docs/events/gateway#session-start-limit). A session
    Discord no longer has answers Invalid Session (opcode 9, d false), upon which discord.py
    IDENTIFYs (https://discord.com/developers/docs/events/gateway-events#invalid-session).
    The unsharded ``Client.connect`` loop already resumes in these cases."""

    async def reconnect(self) -> None:
        if getattr(self.ws, "session_id", None) is None:
            await super().reconnect()
            return
        await self.reidentify(ReconnectWebSocket(self.id, resume=True))


async def launch_shard(client: discord.AutoShardedClient, shard_id: int) -> None:
    """Connect one more shard on the configured gateway. AutoShardedClient only launches all
    of ``shard_ids`` at start; its ``launch_shard`` is the undocumented step it uses. The
    shard it makes resumes after a failed reconnection (``_ResumingShard``)."""
    await client.launch_shard(DiscordWebSocket.DEFAULT_GATEWAY, shard_id)
    shard = client._AutoShardedClient__shards.get(shard_id)  # type: ignore[attr-defined]
    if shard is not None and type(shard) is Shard:
        shard.__class__ = _ResumingShard  # made by launch_shard, which names the class


# -- messages ---------------------------------------------------------------------------------


async def edit_message(
    client: discord.Client, channel_id: int, message_id: int, **fields: Any
) -> None:
    """``PartialMessage.edit`` without parsing Discord's answer into a ``Message`` (its embed
    and components were a good part of an edit's time on the loop, and nothing reads it); the
    public call always parses."""
    mentions = client.allowed_mentions if "content" in fields else None
    with handle_message_parameters(previous_allowed_mentions=mentions, **fields) as params:
        await client.http.edit_message(channel_id, message_id, params=params)


async def delete_message(client: discord.Client, channel_id: int, message_id: int) -> None:
    """Delete a message by its ids, in one request (no channel or message object needed)."""
    await client.http.delete_message(channel_id, message_id)


def interaction_webhook(client: discord.Client, token: str) -> discord.Webhook:
    """The webhook of an interaction from its token alone, after the interaction object is
    gone (a later turn edits a private hand a click showed). ``Webhook.partial`` makes an
    incoming webhook, from which discord.py refuses ephemeral sends; only ``from_state``
    makes the application webhook (type 3) an ``Interaction.followup`` is."""
    app_id = client.application_id
    assert app_id is not None
    return discord.Webhook.from_state(
        {"id": app_id, "type": 3, "token": token}, state=client._connection
    )


async def edit_webhook_message(
    client: discord.Client, token: str, message_id: int | str, **fields: Any
) -> None:
    """``Webhook.edit_message`` through an interaction's token (``interaction_webhook``; the
    same request, ``"@original"`` for the interaction's own message) without parsing Discord's
    answer into a ``WebhookMessage``: its embed and components were a good part of a card's
    time on the loop (a table or a hand edited each card), and nothing reads it. The public
    call always parses."""
    webhook = interaction_webhook(client, token)
    mentions = client.allowed_mentions  # as the public call: its state's
    with handle_message_parameters(previous_allowed_mentions=mentions, **fields) as params:
        await async_context.get().edit_webhook_message(
            webhook.id,
            token,
            message_id,  # type: ignore[arg-type]  # "@original" is a string: the route takes it
            session=webhook.session,
            proxy=webhook.proxy,
            proxy_auth=webhook.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
            with_components=bool(fields.get("view")),
        )


async def send_webhook_message(
    client: discord.Client,
    token: str,
    content: str | None = None,
    *,
    ephemeral: bool = False,
    **fields: Any,
) -> int:
    """``Webhook.send(..., wait=True)`` through an interaction's token (a follow-up), the same
    request, returning only the new message's id: the public call parses Discord's answer into
    a ``WebhookMessage`` (its embed and components) that nothing reads."""
    webhook = interaction_webhook(client, token)
    flags = discord.MessageFlags(ephemeral=True) if ephemeral else discord.utils.MISSING
    view = fields.get("view", discord.utils.MISSING)
    with handle_message_parameters(
        discord.utils.MISSING if content is None else content,
        flags=flags,
        previous_allowed_mentions=client.allowed_mentions,
        **fields,
    ) as params:
        data = await async_context.get().execute_webhook(
            webhook.id,
            token,
            session=webhook.session,
            proxy=webhook.proxy,
            proxy_auth=webhook.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
            wait=True,
            with_components=view is not discord.utils.MISSING,
        )
    assert data is not None  # wait=True: Discord answers with the message
    return int(data["id"])


# -- interactions -----------------------------------------------------------------------------

#: How a button's click is handed over: (component type, item class, interaction, custom_id,
#: the item's template match).
DynamicItemCall = Callable[
    [int, Any, discord.Interaction[Any], str, re.Match[str]], Awaitable[None]
]


def route_dynamic_items(client: discord.Client, call: DynamicItemCall) -> None:
    """Hand each click on a registered ``DynamicItem`` to ``call`` by its custom_id alone.

    discord.py rebuilds the clicked message's whole view before it looks the item up, and
    offers no hook to skip it: its view store's scheduling step is replaced."""
    store = client._connection._view_store
    store.schedule_dynamic_item_call = call  # type: ignore[assignment,method-assign]


def release_interaction(interaction: discord.Interaction[Any]) -> None:
    """Break an answered interaction's reference cycles (its response, follow-up webhook and
    original message each point back at it), so it is freed at once with the clicked message,
    its user and its components. Left to the collector they were ~25 objects of cyclic garbage
    a click, and what survived the young collections made the full ones run every 2 s at 200
    games (~120 ms each, every game stopped). discord.py has no public way to drop them. Call
    only once the click is fully answered."""
    response = getattr(interaction, "_cs_response", None)
    if response is not None:
        response._parent = None
    with contextlib.suppress(AttributeError):  # no follow-up was made
        delattr(interaction, "_cs_followup")
    interaction._original_response = None


async def update_clicked(interaction: discord.Interaction[Any], **fields: Any) -> None:
    """``interaction.response.edit_message(**fields)`` (callback type 7, the clicked message
    updated: a card's answer, the clicker's hand) without asking Discord for the message back
    (``with_response``) and parsing it into an ``InteractionMessage`` that nothing reads; the
    response is marked done as the public call marks it. The public call always asks and
    parses (a click's answer was one of three messages parsed a card). Without
    ``with_response`` Discord answers 204 No Content, as the double does:
    https://discord.com/developers/docs/interactions/receiving-and-responding#create-interaction-response"""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    state = interaction._state
    kind = discord.InteractionResponseType.message_update
    params = interaction_message_response_params(
        type=kind.value, previous_allowed_mentions=state.allowed_mentions, **fields
    )
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    http = state.http
    # As discord.py's own callback: a multipart form with files, else the JSON alone.
    body: dict[str, Any] = (
        {"files": params.files, "multipart": params.multipart}
        if params.files
        else {"payload": params.payload}
    )
    # The session an interaction's own calls use (``Interaction._session`` is this one).
    session = http._HTTPClient__session  # type: ignore[attr-defined]
    await async_context.get().request(
        route, session, proxy=http.proxy, proxy_auth=http.proxy_auth, **body
    )
    response._response_type = kind


def handler_tasks() -> list[asyncio.Task[Any]]:
    """The unfinished tasks in which discord.py runs handlers of what it received (button
    clicks, slash commands, events). discord.py keeps no public list of them; it names them."""
    prefixes = tuple(name.prefix for name in HANDLER_TASKS)
    return [
        task
        for task in asyncio.all_tasks()
        if not task.done() and task.get_name().startswith(prefixes)
    ]


# -- application commands -------------------------------------------------------------------

#: The Primary Entry Point command: the one that launches the app's Activity. Discord makes it
#: when Activities are turned on (https://discord.com/developers/docs/activities/overview
#: #launching-activities; its type: https://discord.com/developers/docs/interactions/
#: application-commands#application-command-object-application-command-types).
PRIMARY_ENTRY_POINT: Final = 4
#: What of a fetched command a bulk overwrite takes back (ApplicationCommandUpdateRequest in
#: Discord's OpenAPI spec); ``default_member_permissions`` comes back as a string.
_ENTRY_POINT_FIELDS: Final = (
    "id",
    "type",
    "name",
    "name_localizations",
    "description",
    "description_localizations",
    "contexts",
    "integration_types",
    "handler",
    "nsfw",
)


def entry_point_body(command: dict[str, Any]) -> dict[str, Any]:
    """A fetched Entry Point command as a bulk overwrite must send it back, unchanged."""
    body = {k: command[k] for k in _ENTRY_POINT_FIELDS if k in command}
    permissions = command.get("default_member_permissions")
    if permissions is not None:
        body["default_member_permissions"] = int(permissions)
    return body


async def sync_commands(
    client: discord.Client, guild_id: int | None, payload: list[dict[str, Any]]
) -> int:
    """Overwrite the app's commands (globally, or in one guild) with ``payload``, keeping the
    Entry Point command Discord made; how many commands there are now.

    ``CommandTree.sync`` is a bulk overwrite of exactly the tree's commands, and once
    Activities are on Discord refuses one that drops the Entry Point command (50240: "You
    cannot remove this app's Entry Point command in a bulk update operation",
    serenity-rs/serenity#2993); discord.py 2.7 has no command type for it (its PR #9996 is
    open), so the tree cannot hold it. The commands are fetched, the Entry Point ones put back
    beside ours, and the whole sent through discord.py's undocumented HTTP calls."""
    app_id = client.application_id
    if app_id is None:
        raise discord.app_commands.MissingApplicationID
    http = client.http
    if guild_id is None:
        existing = await http.get_global_commands(app_id)
    else:
        existing = await http.get_guild_commands(app_id, guild_id)
    ours = {body.get("name") for body in payload}
    # Read as plain dicts: discord.py's typing of a command knows no type 4.
    fetched: list[dict[str, Any]] = [dict(command) for command in existing]
    kept = [
        entry_point_body(command)
        for command in fetched
        if command.get("type") == PRIMARY_ENTRY_POINT and command.get("name") not in ours
    ]
    full = [*payload, *kept]
    if guild_id is None:
        synced = await http.bulk_upsert_global_commands(app_id, payload=full)
    else:
        synced = await http.bulk_upsert_guild_commands(app_id, guild_id, payload=full)
    return len(synced)


# -- views ------------------------------------------------------------------------------------


class PrebuiltView(discord.ui.View):
    """Rows of components already in Discord's JSON (each row a list of component objects),
    sent where discord.py takes a ``View``, and never tracked.

    discord.py has no public way to send components it did not build: sending a view calls its
    undocumented ``to_components`` and ``has_components_v2``, and tracks it unless
    ``is_finished`` or not ``is_dispatchable``. Tracked, each ephemeral message's view got a
    15-minute ``timeout`` and a task for that long. Not ``View.__init__``: there is no discord.py
    item here.
    """

    #: Read before an ephemeral message is sent (never set: the view is not dispatchable).
    #: A plain value: View's own property reads state its ``__init__`` would have made.
    timeout: float | None = None

    def __init__(self, *rows: list[dict[str, Any]]) -> None:
        self.rows = [row for row in rows if row]

    def to_components(self) -> list[dict[str, Any]]:
        action_row = discord.ComponentType.action_row.value
        return [{"type": action_row, "components": row} for row in self.rows]

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False

    def has_components_v2(self) -> bool:
        return False


# -- asyncio ----------------------------------------------------------------------------------


class QueueFreeLock(asyncio.Lock):
    """asyncio's lock, letting go of its queue of waiters once nobody waits: asyncio makes the
    queue (a deque, 624 bytes empty) at the first wait and keeps it for good, about 1 KB a live
    game at rest for its two locks. A waiter stays queued until it runs again (taking the lock
    or cancelled), so a queue found empty on release has nobody in it to lose."""

    def release(self) -> None:
        super().release()
        if self._waiters is not None and not self._waiters:
            self._waiters = None


def lock_contended(lock: asyncio.Lock) -> bool:
    """Held, or a waiter was woken to take it: ``locked()`` alone is False in between, and
    taking it then would jump the queue. asyncio exposes no count of waiters."""
    return lock.locked() or bool(lock._waiters)


__all__ = [
    "HANDLER_TASKS",
    "PRIVATE_ATTRIBUTES",
    "DynamicItemCall",
    "PrebuiltView",
    "PrivateAttribute",
    "QueueFreeLock",
    "TaskName",
    "close_gateway",
    "delete_message",
    "edit_message",
    "edit_webhook_message",
    "entry_point_body",
    "gateway_open",
    "handler_tasks",
    "interaction_webhook",
    "launch_shard",
    "lock_contended",
    "point_at",
    "release_interaction",
    "renew_http_session",
    "route_dynamic_items",
    "send_webhook_message",
    "set_shards",
    "sync_commands",
    "tune_http_session",
    "update_clicked",
]
