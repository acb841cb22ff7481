"""Today's daily deal at the web table (issue 47): a person who opens the Activity may play
their daily there, privately, as ``/nines daily`` plays it in chat (bot/game/daily.py).

A hello with ``daily`` (a game's name) sits the socket at that person's try of today's deal
of that game instead of the channel's table: claimed as the command claims it (one try a day
per person and game, whichever of chat and the web asks first), the game started, or found
open if it was begun in chat or on another socket: the same stored game, whose moves go
through the one move use case (bot/game/moves.py) as any tap's. Played already: the socket is
sent the result (``daily-result``) and sits at no table.

Private: a daily's room is entered only here, by the person's own hello (their try, from
their token), and ``may_sit`` refuses anyone else a seat at a private game's table, whatever
asks (a hello, a waiting socket, the relay), so no other viewer in the channel, nor another
process's socket of someone else, is ever sent its frames. With several processes, a try
whose game another process runs is relayed to that process (bot/activity/relay.py), which
sends its frames to this person's sockets only.

At its end the person's sockets at its table get their result, the same as the chat's (the
share of the field beaten, hand by hand, how the others played): recorded once, whichever of
this and the chat's ``DailyTable`` records it first (``Daily.record``). The chat's public line
and its private hand, if the try was begun there, follow as after a click.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import orjson
from aiohttp import web

from engine import game_type

from ..game import Daily, DailyResult, session_refusal
from ..game.session import GameSession, SessionError
from ..storage import GameKind
from ..words import tr
from .discord_api import Instance, Person
from .protocol import Hello, Json, error_frame
from .relay import READY_WITHIN

if TYPE_CHECKING:
    from .hub import Client, Hub, Room, Viewer

log = logging.getLogger(__name__)


class NoDaily(Exception):
    """The daily cannot be played from this socket now: why, in the person's words."""

    def __init__(self, words: str) -> None:
        super().__init__(words)
        self.words = words


def result_frame(result: DailyResult) -> Json:
    """The person's result as the page draws it: the chat's ``result_text`` in numbers
    (cogs/nines/daily_table.py), the decisions only they played left out as there."""
    return {
        "op": "daily-result",
        "game": result.kind,
        "day": result.day,
        "share": result.share,
        "field": result.field,
        "hands": [{"number": b.hand, "points": b.points, "share": b.share} for b in result.boards],
        "choices": [
            {
                "hand": c.hand,
                "decision": c.decision + 1,
                "mine": c.mine,
                "common": c.common,
                "chose": c.chose,
                "field": c.field,
            }
            for c in result.choices
            if c.field > 1
        ],
    }


class DailyDesk:
    """The hub's door to the daily deals (one per hub)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    @property
    def daily(self) -> Daily:
        return self.hub.games.daily

    @staticmethod
    def may_sit(viewer: Viewer, session: GameSession) -> bool:
        """Whether ``viewer`` may be sent this game's table: a daily's only to its person."""
        return not session.private or session.seat_of(viewer.user_id) is not None

    async def ready_fields(self, session: GameSession) -> Json:
        """What a ``ready`` frame says of the daily: whether one is offered, and which this
        table is (None: not a daily)."""
        at = None
        if session.private:
            found = await self.hub.storage.daily_of_game(session.id)
            if found is not None:
                at = {"game": found.kind, "day": found.day}
        return {"daily": at, "daily_offered": self.daily.offered}

    async def welcome(
        self, ws: web.WebSocketResponse, hello: Hello, person: Person, instance: Instance, lang: str
    ) -> Client | None:
        """A hello with ``daily``, let in by the gate: the person sits at their try of today's
        deal (started if need be), or is sent its result; None, refused in words
        (``no-daily``), when it cannot be played from here now."""
        from .hub import Client  # (hub.py imports this module)

        client = Client(ws, person.user_id, person.name, lang, 0)
        try:
            return await self._sit(hello, person, instance, client)
        except NoDaily as refused:
            await self.hub._refuse(ws, "no-daily", refused.words)
            return None

    async def _sit(
        self, hello: Hello, person: Person, instance: Instance, client: Client
    ) -> Client:
        lang = client.lang
        daily, hub = self.daily, self.hub
        assert hello.daily is not None  # (a game's name: parse_frame checked it)
        kind: GameKind = game_type(hello.daily).name
        if not daily.offered:
            raise NoDaily(tr(lang, "daily.not_offered", setting="DAILY_SECRET"))
        guild_id, channel_id = instance.guild_id, instance.channel_id
        if guild_id is None or channel_id is None:
            raise NoDaily(tr(lang, "activity.error.daily_guild_only"))
        found = await daily.claim(
            kind,
            person.user_id,
            guild_id=guild_id,
            channel_id=channel_id,
            name=person.name,
        )
        if found.finished:
            result = await daily.result_of(found)
            if result is None:
                game = tr(lang, f"game.{kind}")
                raise NoDaily(tr(lang, "daily.played", game=game))
            client.send(orjson.dumps(result_frame(result)).decode())
            return client  # at no table: the page shows the result
        session = None if found.game_id is None else hub.games.sessions.get(found.game_id)
        if session is None:
            serves = hub.serves
            here = serves is None or serves(guild_id)
            if found.game_id is None and not here:
                # Its server's games run on another process, which starts it (as the
                # command, which Discord sends to that process).
                raise NoDaily(tr(lang, "activity.error.daily_in_chat"))
            if found.game_id is not None:
                if self.hub.relay is None:
                    raise NoDaily(tr(lang, "daily.elsewhere"))
                return self._relayed(client, found.game_id, person.avatar)
            try:
                session = await daily.open_game(found, language=lang)
            except SessionError as error:
                raise NoDaily(session_refusal(lang, error)) from None
        if session.closed or session.game is None:
            raise NoDaily(tr(lang, "daily.elsewhere"))
        client.game_id = session.id
        await self.hub.join(client, session, person.avatar)
        return client

    def _relayed(self, client: Client, game_id: int, avatar: str | None) -> Client:
        """The try's game runs on another process: its frames come through the relay, to this
        person's sockets only (the holder sits them: ``may_sit``)."""
        relay = self.hub.relay
        assert relay is not None
        client.game_id, client.remote = game_id, True
        log.info("activity: daily game %s runs in another process; relaying its socket", game_id)
        relay.join(client, avatar)

        def unanswered() -> None:
            if not client.heard:  # no process runs it after all (it just ended)
                words = tr(client.lang, "daily.elsewhere")
                client.send(error_frame(None, "no-daily", words))
                client.stop()

        asyncio.get_running_loop().call_later(READY_WITHIN, unanswered)
        return client

    async def ended(self, session: GameSession, room: Room) -> None:
        """A daily ended with its table open: its result joins the field (once, whoever
        records it first) and goes to the person's sockets at it, and to nobody else."""
        if session.status != "finished":
            return  # stopped or abandoned unplayed: nothing to score
        result = await self.daily.record(session)
        if result is None:
            return
        frame = orjson.dumps(result_frame(result)).decode()
        for viewer in list(room.clients):
            if self.may_sit(viewer, session):
                viewer.send(frame)


__all__ = ["DailyDesk", "result_frame"]
