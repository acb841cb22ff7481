"""The Activity's websockets: who is at which game's table, and every change pushed to them.

One ``Room`` per game with sockets open. A change of the game (``changed``, told by the fan-out
presenter after each step, whoever made it: a chat click, a socket's action, a timer, a
computer) builds the table once per viewer under the game's lock, so it is the stored state and
never a move on its way to the database, numbers it (``seq``, one more per change) and queues
it on each socket; each socket's writer sends in order, so a slow client holds up no one.

An action (``act``) is played by the one move use case a chat click goes through too
(bot/game/moves.py: the lock, the answer window, the computers, then ``presenter.show``), so the
chat table, the chat hands and the turn pings follow as after a click; here it is only
translated, into ``ack`` and ``error`` frames. It carries the move count of the table it was
made on (``n``): made on an older table, it is refused as out of date, as a chat click is.
Each carries a key: a key already answered gets its first answer again, and is never applied
twice: remembered here, and stored with its move (``action_keys``, in the move's own write),
so a key resent to the process that took the game over after a crash is answered as the
first time. A key is bound to its action and count: resent with another, it is refused.

One socket's life (its bounds, hello, frames and writer) is bot/activity/socket_life.py's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Protocol

import orjson
from aiohttp import WSCloseCode, web

from engine import parse_action

from ..game import Answer, Daily, Move, Moves, Sessions
from ..game.session import GameLost, GameSession, SessionError
from ..storage import FencedOut, Storage
from ..words import language_of, tr
from .daily import DailyDesk
from .discord_api import Person
from .gate import Gate, Refused
from .limits import HELLO_SECONDS, SILENT_SECONDS, Limits, Openings
from .model import table_texts
from .protocol import Act, Hello, Json, LobbyAct, error_frame
from .relay import READY_WITHIN
from .tasks import Background
from .waiting import Waiting
from .words import refusal, session_refusal

if TYPE_CHECKING:
    from .relay import Relay

log = logging.getLogger(__name__)

#: How long, and how many, answered keys are remembered per person and game.
KEY_SECONDS: Final = 15 * 60.0
KEYS_KEPT: Final = 256
#: Frames queued on one socket beyond which it is closed (it reconnects and gets the table
#: whole): a client that reads nothing must not hold the server's memory.
QUEUE_LONGEST: Final = 64


@dataclass(eq=False, slots=True)
class Client:
    """One open socket: whose, at which game, and its queue of frames to send."""

    ws: web.WebSocketResponse
    user_id: int
    name: str
    lang: str
    #: Its game (0 while it waits for one: ``waiting``).
    game_id: int
    #: Signed in, in a channel with no game yet (bot/activity/waiting.py).
    waiting: bool = False
    #: Told to close: nothing more reaches it.
    closed: bool = False
    #: Its game runs in another process (bot/activity/relay.py): frames come from there.
    remote: bool = False
    #: Whether a frame was queued yet (a remote game's ready may never come).
    heard: bool = False
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)

    def stop(self) -> None:
        """Close the socket once what is queued is sent."""
        self.closed = True
        self.queue.put_nowait(None)

    def send(self, frame: Json | str) -> None:
        """Queue a frame (sent in order by the socket's writer)."""
        if self.queue.qsize() >= QUEUE_LONGEST:
            log.info("activity socket of %s is not reading; closing it", self.user_id)
            self.queue.put_nowait(None)
            return
        self.heard = True
        self.queue.put_nowait(frame if isinstance(frame, str) else orjson.dumps(frame).decode())


class Viewer(Protocol):
    """Whoever a room pushes to: a socket here (``Client``), or one open on another process
    (``relay.RemoteClient``)."""

    user_id: int
    name: str
    lang: str
    game_id: int

    def send(self, frame: Json | str) -> None: ...

    def stop(self) -> None: ...


@dataclass(eq=False, slots=True)
class Room:
    game_id: int
    seq: int = 0
    clients: set[Viewer] = field(default_factory=set)
    #: Avatar URLs of the people who opened this table, for the seats' pictures.
    avatars: dict[int, str] = field(default_factory=dict)
    #: The game ended here (its last table pushed): its sockets stay to show the end.
    ended: bool = False
    #: (hand number, completed tricks) as the last push drew them: a Nein Nine trick completed
    #: and followed by the next lead in one step is drawn once (table_model.build).
    drawn: tuple[int, int] | None = None
    #: The server's four-colour deck setting as last read (``Hub.four_colour``).
    four_colour: bool = False


def push_tables(session: GameSession, room: Room) -> None:
    """The game's table, as each of the room's clients may see it, under a new seq: one frame
    per viewer (a seat, or the watchers'), its model built once per change (shared with the
    chat, ``bot.table.table_models``) and what every viewer shares serialized once
    (``table_texts``); the sockets of one viewer are queued the same text."""
    room.seq += 1
    game = session.game
    shown = None
    if game is not None and room.drawn is not None:
        shown = room.drawn[1] if room.drawn[0] == game.hand_number else 0
    clients = [(client, session.seat_of(client.user_id)) for client in list(room.clients)]
    texts = table_texts(
        session,
        (v for _, v in clients),
        room.avatars,
        shown_tricks=shown,
        four_colour=room.four_colour,
    )
    head = f'{{"op":"table","seq":{room.seq},"table":'
    frames = {viewer: f"{head}{text}}}" for viewer, text in texts.items()}
    for client, viewer in clients:
        client.send(frames[viewer])
    if game is not None:
        room.drawn = (game.hand_number, len(game.tricks))


@dataclass(frozen=True, slots=True)
class Given:
    """A key's first answer: when, to which action, and the answer (ack or error)."""

    at: float
    act: Act
    answer: asyncio.Future[Json]


@dataclass(slots=True)
class Answered:
    """The answers given to one person's keys in one game, oldest first."""

    answers: OrderedDict[str, Given] = field(default_factory=OrderedDict)

    def prune(self, now: float) -> None:
        while self.answers:
            key, given = next(iter(self.answers.items()))
            if now - given.at < KEY_SECONDS and len(self.answers) <= KEYS_KEPT:
                break
            del self.answers[key]


@dataclass(slots=True)
class TapReply:
    """A tap's answer (``bot.game.moves.Reply``): ``ack`` sent once its move is stored (before
    the computers that follow finish, when they take longer than the answer window), or the
    error frame the hub sends; either is ``frame``, given again to a resend of the key."""

    client: Viewer
    key: str
    frame: Json | None = None
    #: Refused because its key made another move.
    reused: bool = False

    async def waiting(self) -> None:
        """A socket waits as long as the game is busy: nothing to say."""

    async def gone(self) -> None:
        self.frame = error_frame(self.key, "no-game", refusal(self.client.lang, "no-game"))

    async def refused(self, error: SessionError) -> None:
        self.reused = error.key == "error.key_reused"
        self.frame = error_frame(self.key, *session_refusal(self.client.lang, error))

    async def made_before(self) -> None:
        await self._ack()  # its move was stored by an earlier holder of the game

    def accepted(self, session: GameSession) -> Answer:
        return Answer(self._ack, shows_game=False)

    async def _ack(self) -> None:
        self.frame = {"op": "ack", "key": self.key}
        self.client.send(self.frame)


@dataclass(frozen=True, slots=True)
class Games:
    """What the hub seats people at and plays their moves in: the bot's sessions, its one
    move use case (bot/game/moves.py) and the daily deals (bot/game/daily.py)."""

    sessions: Sessions
    moves: Moves
    daily: Daily


class Hub:
    def __init__(
        self,
        storage: Storage,
        serves: Callable[[int], bool] | None,
        gate: Gate,
        limits: Limits | None = None,
    ) -> None:
        #: The guilds' settings (the four-colour deck) and the games in channels (relayed).
        self.storage = storage
        #: Whether this process runs a guild's games (``NinesBot.serves``); None: every guild.
        self.serves = serves
        #: The sessions and the move use case (``plays``): made after the hub, as the sessions
        #: tell it their changes through the presenter they are made with
        #: (bot/activity/fanout.py), which pushes to this hub.
        self._games: Games | None = None
        #: Who may sit at a table (bot/activity/gate.py): hellos checked, sockets re-checked.
        self.gate = gate
        self.rooms: dict[int, Room] = {}
        self.answered: dict[tuple[int, int], Answered] = {}
        #: The caps on open sockets, and the sockets open now (bot/activity/limits.py).
        self.limits = limits or Limits()
        self.openings = Openings()
        #: The sockets not yet welcomed (no client): closed as such when stopping.
        self.unwelcomed: set[web.WebSocketResponse] = set()
        #: A socket's hello comes within this long, then a frame of ours within the other.
        self.hello_seconds = HELLO_SECONDS
        self.silent_seconds = SILENT_SECONDS
        self.background = Background()
        #: Between processes on PostgreSQL (bot/activity/relay.py); None in one process.
        self.relay: Relay | None = None
        #: Told when a seated person's last socket at a game in play closed: the web table no
        #: longer tells them their turn, the chat must (set by the fan-out presenter).
        self.seat_left: Callable[[GameSession], None] | None = None
        #: A lobby move from a web table (join, leave, a computer, start), done as chat does
        #: it: set by the extension (cogs/nines/web_lobby.py), which edits the chat's lobby
        #: message too; None without it (the move is refused).
        self.lobby_seat: Callable[[GameSession, int, str, str], Awaitable[None]] | None = None
        #: A lobby opened from a waiting web table, as ``/nines start`` opens one: (channel,
        #: guild, user id, name); set by the extension too.
        self.lobby_open: Callable[[int, int, int, str], Awaitable[None]] | None = None
        #: Stopping: the sockets closing now are not people leaving.
        self.closing = False
        #: Signed-in sockets in channels with no game (without the relay): seated when one
        #: opens there (``Sessions.opened`` is ``waiting.game_opened``).
        self.waiting = Waiting(self)
        #: Today's daily deal at the web table, each person's own (bot/activity/daily.py).
        self.desk = DailyDesk(self)

    def plays(self, sessions: Sessions, moves: Moves, daily: Daily) -> None:
        """The sessions and the move use case, once ``NinesBot.plug_in`` has made them
        around the fan-out presenter (the server is not started before)."""
        self._games = Games(sessions, moves, daily)

    @property
    def games(self) -> Games:
        if self._games is None:
            raise RuntimeError("the hub has no games before NinesBot.plug_in gives them")
        return self._games

    def game_in(self, channel_id: int | None, guild_id: int | None) -> GameSession | None:
        """The game in play in a channel of that guild, if this process runs it."""
        if channel_id is None:
            return None
        session = self.games.sessions.in_channel(channel_id)
        if session is None or session.guild_id != guild_id:
            return None
        if self.serves is not None and not self.serves(session.guild_id):
            return None  # another process runs this guild's games
        return session

    # -- changes ------------------------------------------------------------------------------

    def changed(self, session: GameSession) -> None:
        """The game changed: push its table to its sockets (in the background, in order)."""
        room = self.rooms.get(session.id)
        if room is None or not room.clients:
            return
        self.background.run(self._push(session, room), f"activity-push-{session.id}")

    async def _push(self, session: GameSession, room: Room) -> None:
        # Under the game's lock: no move is half made (applied, not yet stored) meanwhile.
        # Never called by a holder of the lock: it runs in its own task.
        room.four_colour = await self.four_colour(session)
        async with session.lock:
            push_tables(session, room)
        if session.closed:
            first_end = not room.ended
            room.ended = session.status in ("finished", "abandoned")
            if session.private and first_end:
                await self.desk.ended(session, room)  # the person's result, to them only
            self._forget_ended()  # its last table is sent: what only it needed can go

    # -- one socket ---------------------------------------------------------------------------

    @staticmethod
    async def _refuse(ws: web.WebSocketResponse, code: str, words: str) -> None:
        """A refused socket: said, then closed (by socket_life.serve); unsaid if the peer is
        gone."""
        with contextlib.suppress(ConnectionError, RuntimeError):
            await ws.send_json(error_frame(None, code, words))

    async def _welcome(self, ws: web.WebSocketResponse, hello: Hello) -> Client | None:
        """Check who this is and where (bot/activity/gate.py: the user comes from the token,
        the channel from Discord's instance), then send ``ready``; the socket is checked again
        while it stays open."""
        lang = language_of(hello.locale)
        verdict = await self.gate.check(hello)
        if isinstance(verdict, Refused):
            await ws.send_json(verdict.frame(lang))
            return None
        person, instance = verdict.person, verdict.instance
        session = self.game_in(instance.channel_id, instance.guild_id)
        client: Client | None
        if hello.daily is not None:
            client = await self.desk.welcome(ws, hello, person, instance, lang)
        elif session is None:
            client = await self._elsewhere(ws, person, lang, instance.channel_id, instance.guild_id)
        else:
            client = Client(ws, person.user_id, person.name, lang, session.id)
            await self.join(client, session, person.avatar)
        if client is not None:
            self.gate.watch(client, hello)
        return client

    async def recheck(self, instance_id: str | None = None) -> int:
        """Check the open sockets again (those of one instance, asked afresh, when Discord
        said its participants changed): who is no longer let in loses the socket, told why."""
        return await self.gate.recheck(instance_id)

    async def four_colour(self, session: GameSession) -> bool:
        """The game's server's four-colour deck setting (from storage's cache of the guild's
        settings), which the chat's card faces follow too."""
        settings = await self.storage.get_guild_settings(session.guild_id)
        return settings.get("four_colour", False) is True

    async def join(self, viewer: Viewer, session: GameSession, avatar: str | None) -> None:
        """``viewer`` sits down at the game's table: its ``ready`` frame, then every change."""
        if not self.desk.may_sit(viewer, session):
            log.warning("activity: %s refused a seat at daily game %s", viewer.user_id, session.id)
            viewer.stop()
            return
        daily = await self.desk.ready_fields(session)
        room = self.rooms.setdefault(session.id, Room(session.id))
        if avatar is not None:
            room.avatars[viewer.user_id] = avatar
        room.four_colour = await self.four_colour(session)
        # Built and queued under the game's lock, as every table frame, and before the viewer
        # joins the room's pushes: nothing it is sent comes from a half-made move, or twice.
        async with session.lock:
            seat = session.seat_of(viewer.user_id)
            name = session.seats[seat].name if seat is not None else viewer.name
            table = table_texts(session, [seat], room.avatars, four_colour=room.four_colour)[seat]
            you = {"user_id": str(viewer.user_id), "name": name, "seat": seat}
            head = {"op": "ready", "seq": room.seq, "you": you, "lang": viewer.lang, **daily}
            viewer.send(f'{orjson.dumps(head).decode()[:-1]},"table":{table}}}')
            room.clients.add(viewer)

    async def _elsewhere(
        self,
        ws: web.WebSocketResponse,
        person: Person,
        lang: str,
        channel_id: int | None,
        guild_id: int | None,
    ) -> Client | None:
        """No game of this channel runs here. With the relay (PostgreSQL), the process running
        it answers through the relay, and if none does the hello is refused (the page asks
        again minutes later: a game another process opens is not heard here). Without it (one
        process) the socket waits for a game to open in the channel (bot/activity/waiting.py)."""
        if self.relay is None and channel_id is not None:
            client = Client(ws, person.user_id, person.name, lang, 0)
            self.waiting.add(client, channel_id, guild_id, person.avatar)
            return client
        row = None
        if self.relay is not None and channel_id is not None:
            row = await self.storage.game_in_channel(channel_id)
        if self.relay is None or row is None or not row.is_open or row.guild_id != guild_id:
            await self._refuse(ws, "no-game", refusal(lang, "no-game"))
            return None
        client = Client(ws, person.user_id, person.name, lang, row.id, remote=True)
        log.info("activity: game %s runs in another process; relaying its socket", row.id)
        self.relay.join(client, person.avatar)

        def unanswered() -> None:
            if not client.heard:  # no process runs it after all (it just ended)
                client.send(error_frame(None, "no-game", refusal(lang, "no-game")))
                client.stop()

        asyncio.get_running_loop().call_later(READY_WITHIN, unanswered)
        return client

    def at_table(self, game_id: int) -> frozenset[int]:
        """The people (user ids) with the game's table open now: a socket signed in (its
        person from their token, checked in the channel's instance) here or relayed here."""
        room = self.rooms.get(game_id)
        return frozenset() if room is None else frozenset(c.user_id for c in room.clients)

    def forget(self, viewer: Viewer) -> None:
        """``viewer`` left the table: if it was a seated person's last socket at a game in
        play, the chat tells them their turns again (``seat_left``)."""
        room = self.rooms.get(viewer.game_id)
        if room is not None:
            room.clients.discard(viewer)
            session = self.games.sessions.get(viewer.game_id)
            if (
                session is not None
                and session.status == "live"
                and not session.closed
                and session.seat_of(viewer.user_id) is not None
                and viewer.user_id not in self.at_table(viewer.game_id)
                and self.seat_left is not None
                and not self.closing
            ):
                self.seat_left(session)
        self._forget_ended()

    def release_lost(self) -> None:
        """Close the sockets opened here on games this process ran and no longer runs, unended
        (its shard handed back or taken over): nothing would reach them any more. Their
        clients reconnect, and the hello finds the game where it runs now (relayed if need
        be). Called now and then (bot/activity/relay.py's refresher)."""
        for game_id, room in list(self.rooms.items()):
            if room.ended or self.games.sessions.get(game_id) is not None:
                continue
            for client in list(room.clients):
                if isinstance(client, Client) and not client.remote:
                    log.info("activity: game %s runs elsewhere now; closing its socket", game_id)
                    client.stop()
                    room.clients.discard(client)

    def _forget_ended(self) -> None:
        """Drop the rooms nobody watches of games that ended, with their answered keys (no
        action can be taken in them any more)."""
        ended = [
            game_id
            for game_id, room in self.rooms.items()
            if self.games.sessions.get(game_id) is None
            and not any(isinstance(c, Client) for c in room.clients)  # the others are relayed
        ]
        for game_id in ended:
            del self.rooms[game_id]
        gone = set(ended)
        for key in [k for k in self.answered if k[0] in gone]:
            del self.answered[key]
        if self.relay is not None:
            self.relay.forget_games(gone)

    # -- actions ------------------------------------------------------------------------------

    async def act(self, client: Viewer, act: Act) -> None:
        """Apply an action once per key; a key seen before gets its first answer again (a key
        that made a move, only with that move: another is refused)."""
        now = time.monotonic()
        answered = self.answered.setdefault((client.game_id, client.user_id), Answered())
        answered.prune(now)
        while (earlier := answered.answers.get(act.key)) is not None:
            first = earlier.answer
            try:
                answer = await asyncio.shield(first)
                if answer["op"] == "ack" and earlier.act != act:
                    # A key that made a move is bound to it: another action or table under it
                    # is refused, never acknowledged as if it were played.
                    reused = SessionError("error.key_reused")
                    answer = error_frame(act.key, *session_refusal(client.lang, reused))
                client.send(answer)
                return
            except asyncio.CancelledError:
                if not first.cancelled():
                    raise  # this task is being cancelled, not the first attempt
            # The first attempt failed, unapplied: this resend tries it again.
        future: asyncio.Future[Json] = asyncio.get_running_loop().create_future()
        answered.answers[act.key] = Given(now, act, future)
        try:
            answer, own = await self._apply(client, act)
        except Exception:
            # Not applied (the session undid it): said, and the key is free for a resend.
            log.exception("activity action %r in game %s failed", act.action, client.game_id)
            del answered.answers[act.key]
            future.cancel()
            client.send(error_frame(act.key, "stale", tr(client.lang, "error.unexpected")))
            return
        except BaseException:
            del answered.answers[act.key]
            future.cancel()
            raise
        future.set_result(answer)
        if not own:
            # The key made another move, found in storage: the key's answer is that move's
            # (an ack to it resent unchanged), not this refusal.
            del answered.answers[act.key]
        if answer["op"] == "ack":
            return  # sent as soon as the move was stored
        client.send(answer)

    async def lobby(self, client: Client, act: LobbyAct) -> None:
        """A lobby move from the page (``Hub.lobby_seat``): ``ack``, or the chat's refusal in
        the person's words. The table that follows shows the seats (the lobby's write tells
        the presenter, which pushes it)."""
        lang = client.lang
        if act.what == "open" or client.waiting:
            await self._open(client, act)
            return
        session = self.games.sessions.get(client.game_id)
        if session is None or self.lobby_seat is None:
            client.send(error_frame(act.key, "no-game", refusal(lang, "no-game")))
            return
        try:
            await self.lobby_seat(session, client.user_id, client.name, act.what)
        except SessionError as error:
            client.send(error_frame(act.key, *session_refusal(lang, error)))
            return
        except Exception:
            log.exception("activity lobby move %r in game %s failed", act.what, session.id)
            client.send(error_frame(act.key, "stale", tr(lang, "error.unexpected")))
            return
        client.send({"op": "ack", "key": act.key})

    async def _open(self, client: Client, act: LobbyAct) -> None:
        """``open`` from a socket waiting in a channel with no game: a lobby opened there
        (``Hub.lobby_open``); the socket then sits down at it as every waiting one does."""
        lang = client.lang
        if not client.waiting:  # at a game already: this channel has one
            busy = SessionError("error.channel_busy")
            client.send(error_frame(act.key, *session_refusal(lang, busy)))
            return
        where = self.waiting.where(client)
        if act.what != "open" or where is None or where[1] is None or self.lobby_open is None:
            client.send(error_frame(act.key, "no-game", refusal(lang, "no-game")))
            return
        try:
            await self.lobby_open(where[0], where[1], client.user_id, client.name)
        except SessionError as error:
            client.send(error_frame(act.key, *session_refusal(lang, error)))
            return
        except Exception:
            log.exception("activity: opening a lobby in channel %s failed", where[0])
            client.send(error_frame(act.key, "stale", tr(lang, "error.unexpected")))
            return
        client.send({"op": "ack", "key": act.key})

    async def _apply(self, client: Viewer, act: Act) -> tuple[Json, bool]:
        """The action's answer, and whether it is its key's own (False: the key made another
        move, before this process knew it)."""
        lang = client.lang
        try:
            action = parse_action(act.action)
        except ValueError:
            return error_frame(act.key, "bad-request", refusal(lang, "bad-request")), True
        session = self.games.sessions.get(client.game_id)
        if session is None:
            return error_frame(act.key, "no-game", refusal(lang, "no-game")), True
        reply = TapReply(client, act.key)
        try:
            shown = await self.games.moves.play(
                session, Move(client.user_id, act.n, action, key=act.key), reply
            )
        except GameLost:
            return error_frame(act.key, "no-game", refusal(lang, "no-game")), True
        if shown is not None:
            self._track(shown)
        assert reply.frame is not None  # play answers every move it returns from
        return reply.frame, not reply.reused

    def _track(self, shown: asyncio.Future[None]) -> None:
        async def wait() -> None:
            try:
                await shown
            except (GameLost, FencedOut):
                # Another process took the game's shard over meanwhile and shows it (as a
                # chat click's show: cogs.nines.ui.GameButton.answer).
                log.info("activity: the game's shard has another holder; it shows the move")

        self.background.run(wait(), "activity-show")

    # -- stopping -----------------------------------------------------------------------------

    async def close(self) -> None:
        """Close every socket (clients reconnect to whichever process serves next)."""
        self.closing = True
        self.waiting.close()
        for room in list(self.rooms.values()):
            for viewer in list(room.clients):
                viewer.stop()
        if self.relay is not None:
            for clients in list(self.relay.edge_clients.values()):
                for client in list(clients):
                    client.stop()
        self.rooms.clear()
        # As aiohttp's graceful shutdown closes websockets: with GOING_AWAY, their handlers
        # still waiting in receive (the server's shutdown would wait on them, then cancel).
        for ws in list(self.unwelcomed):
            self.background.run(ws.close(code=WSCloseCode.GOING_AWAY), "activity-close")
        await self.background.finish(5.0)
