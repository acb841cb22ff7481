"""The bot: built once with its settings, storage and computer players (by ``bot/process/run.py``,
which runs it), and what both of its fronts, the chat's extension and the web table, are given."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final, Protocol

import discord
from discord.ext import commands

from .base import Settings, discord_internals, metrics
from .chat import CardFaces, sync_card_faces
from .game import (
    ChatPresenter,
    Computers,
    Daily,
    Deps,
    DuplicateMatches,
    GameSession,
    Moves,
    Presenter,
    Sessions,
)
from .storage import Fence, Storage

if TYPE_CHECKING:
    from .tournament import TournamentRunner

log = logging.getLogger(__name__)

#: Young-generation size for the garbage collector. A full collection stops every game
#: (measured at 200 games: 27 in 3 minutes, ~140 ms each, before views were unlinked and the
#: start-up heap frozen). 20,000 was tried: rarer but 25-180 ms young collections, no better
#: at p99; 2,100 (with a middle collection every 3): young collections of 1.7 ms at p50 for no
#: less time in all, and 107 KB a live game against 96-98. CPython's default of 700 is kept.
GC_YOUNG: Final = 700

#: Middle-generation collections between full ones (default 10). A full collection walks every
#: live game; at 200 games the default ran one every 2-4 s (50-120 ms each, every game
#: stopped). Clicks make no cyclic garbage any more (no view built, interactions released),
#: so full collections freed ~30 objects each: rarer ones cost no memory. 3.11 also waits
#: until a quarter of the long-lived objects are new.
GC_OLD: Final = 100

#: The extension that holds the game (commands, buttons, the presenter), loaded by its dotted
#: name as discord.py loads any extension: the bot never imports it, the extension plugs its
#: presenter in (``NinesBot.plug_in``).
GAME_EXTENSION: Final = "cogs.nines"

#: Only what slash commands and buttons need: guild and channel events, no message content.
INTENTS = discord.Intents(guilds=True)

#: On SIGTERM/SIGINT, clicks and commands already received get this long to be answered and
#: stored (Docker kills the process 10 s after its SIGTERM).
DRAIN_SECONDS: Final = 5.0


#: A lobby move made at the web table, done as chat's (the extension's): the game, who, the
#: name their seat takes, what (``join``, ``leave``, ``cpu``, ``uncpu``, ``start``).
LobbyMove = Callable[[GameSession, int, str, str], Awaitable[None]]
#: A lobby opened from a waiting web table: the channel, the guild, who, their name.
LobbyOpening = Callable[[int, int, int, str], Awaitable[None]]


class WebTable(Protocol):
    """The web table's server (``bot/activity``'s ``ActivityServer``) as the bot sees it: built
    beside the bot when configured (``bot/process/run.py``), started and stopped with it, shown
    every change, and told when a game opens in a channel where a page waits."""

    def fan_out(self, chat: ChatPresenter) -> Presenter: ...

    def plays(self, sessions: Sessions, moves: Moves, daily: Daily) -> None: ...

    def lobby_moves(self, seat: LobbyMove, open_lobby: LobbyOpening) -> None: ...

    def game_opened(self, session: GameSession) -> None: ...

    def at_table(self, game_id: int) -> frozenset[int]: ...

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class NinesBot(commands.Bot):
    sessions: Sessions
    #: The daily deals (bot/game/daily.py), built with the sessions.
    daily: Daily
    #: Duplicate matches at a table of friends (bot/game/duplicate_match.py).
    duplicates: DuplicateMatches
    presenter: Presenter
    #: How a person's move is played, from a chat click or a web table's tap (bot/game/moves.py).
    moves: Moves
    #: Whether this process runs a guild's games: a sharded bot's test of its shards
    #: (bot/process/shards.py); None: every guild (one process).
    serves: Callable[[int], bool] | None = None

    def fence(self, guild_id: int) -> Fence | None:
        """What this process stamps on a guild's games' writes: nothing in one process; a
        sharded bot's lease of the guild's shard (bot/process/shards.py, storage's fencing.py)."""
        return None

    def fenced_out(self, fence: Fence) -> None:
        """A write under ``fence`` was refused: nothing to do without shards."""

    def __init__(
        self, settings: Settings, storage: Storage, computers: Computers, **options: Any
    ) -> None:
        super().__init__(
            **options,
            command_prefix=commands.when_mentioned,
            intents=INTENTS,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            # No cap on connections to Discord (discord.py's default). A cap of 100 saved
            # ~5 KB a live game at 200 games, only because the Discord double answered slowly,
            # and queued interaction answers behind table edits: with a slow Discord an answer
            # may miss its 3-second deadline (in a run with the cap, one in 92,305 did).
        )
        self.settings = settings
        self.storage = storage
        self.computers = computers
        #: Restore announcements running in the background (held so they are not collected).
        self._announcing: set[asyncio.Task[None]] = set()
        #: The card faces as application emojis, for the presenter: empty (cards as text)
        #: until ``card_faces_synced`` has uploaded them, and for good if that failed.
        self.card_faces = CardFaces.empty()
        self.card_faces_synced: asyncio.Task[CardFaces] | None = None
        #: The Activity's server (the web table), only when configured (``bot/process/run.py``).
        self.activity_server: WebTable | None = None
        #: The tournaments' runner (bot/tournament/runner.py), set by the game extension.
        self.tournaments: TournamentRunner | None = None

    def plug_in(self, chat: ChatPresenter) -> Sessions:
        """The game extension's presenter, at its setup: the sessions are built around it.
        With the Activity on, every change reaches its sockets too (bot/activity/fanout.py),
        and the hub seats people at these sessions and plays their moves."""
        server = self.activity_server
        presenter: Presenter = chat if server is None else server.fan_out(chat)
        self.presenter = presenter
        self.moves = Moves(presenter, self.storage)
        self.sessions = Sessions(
            Deps(
                self.storage,
                self.computers,
                presenter,
                fence=self.fence,
                fenced_out=self.fenced_out,
            )
        )
        self.daily = Daily(self.settings.daily_secret, self.storage, self.sessions)
        if server is not None:
            # Given now, not when the hub was made: the sessions tell it their changes
            # through the fan-out presenter, which is made with the hub.
            server.plays(self.sessions, self.moves, self.daily)
            # A page waiting in a channel with no game sits down when one opens there.
            self.sessions.opened = server.game_opened
        self.duplicates = DuplicateMatches(self.sessions)
        return self.sessions

    def announce_restored(self, restored: list[GameSession]) -> None:
        """In the background, once connected: tell the restored games' channels and resume
        their timers (at start, or when a sharded bot took over a shard)."""
        task = self.loop.create_task(self._announce_restored(restored), name="restore-games")
        self._announcing.add(task)
        task.add_done_callback(self._announcing.discard)

    async def _announce_restored(self, restored: list[GameSession]) -> None:
        await self.wait_until_ready()
        await self.sessions.resume(restored)

    async def setup_hook(self) -> None:
        from .chat import CatalogueTranslator

        tune_http(self, self.settings.connect_timeout)
        await self.tree.set_translator(CatalogueTranslator())
        if GAME_EXTENSION not in self.extensions:  # a login that failed after it is retried
            await self.load_extension(GAME_EXTENSION)
        await self.sync_commands()
        self.start_card_faces()
        if self.activity_server is not None:
            await self.activity_server.start()
        tune_gc()

    def start_card_faces(self) -> None:
        """Upload the card faces in the background (the first start of a new application
        uploads them all, which may meet Discord's rate limits): games start and play
        meanwhile, their cards as text until the faces are there."""
        if not self.settings.card_emojis or self.card_faces_synced is not None:
            return  # off, or a login retried after it started

        async def sync() -> CardFaces:
            self.card_faces = await sync_card_faces(self, self.storage)
            return self.card_faces

        self.card_faces_synced = self.loop.create_task(sync(), name="card-faces")

    async def command_payload(self, guild: discord.abc.Snowflake | None) -> list[dict[str, Any]]:
        translator = self.tree.translator
        payload = []
        for command in self.tree.get_commands(guild=guild):
            if translator is not None:
                payload.append(await command.get_translated_payload(self.tree, translator))
            else:
                payload.append(command.to_dict(self.tree))
        return payload

    async def sync_commands(self) -> None:
        """Sync slash commands only when they changed (Discord limits creations per day)."""
        mode = self.settings.sync_commands
        if mode == "never":
            return
        guild = discord.Object(self.settings.dev_guild) if self.settings.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = await self.command_payload(guild)
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        key = f"commands:{guild.id if guild else 'global'}"
        if mode == "auto" and await self.storage.get_meta(key) == digest:
            log.info("slash commands unchanged; not syncing")
            return
        # Not tree.sync: the Entry Point command of an app with Activities is kept.
        synced = await discord_internals.sync_commands(self, guild.id if guild else None, payload)
        await self.storage.set_meta(key, digest)
        log.info(
            "synced %d application commands %s",
            synced,
            f"to guild {guild.id}" if guild else "globally",
        )

    async def shutdown(self, connection: asyncio.Task[None] | None = None) -> None:
        """A graceful stop: no new interactions (the gateway is closed first), those received
        answered and stored (up to DRAIN_SECONDS), then timers, computer players, the
        connection to Discord and the database closed."""
        if connection is not None:
            connection.cancel()
            with contextlib.suppress(BaseException):
                await connection
        await self.close_gateway()
        await drain_handlers(DRAIN_SECONDS)
        await self.close()

    def gateway_open(self) -> bool:
        """Connected to Discord's gateway and ready (the health check)."""
        return discord_internals.gateway_open(self)

    async def close_gateway(self) -> None:
        """Receive nothing more from Discord (the first step of a graceful stop)."""
        await discord_internals.close_gateway(self)

    async def close(self) -> None:
        syncing = self.card_faces_synced
        if syncing is not None and not syncing.done():
            syncing.cancel()  # an upload cut short resumes at the next start
            with contextlib.suppress(BaseException):
                await syncing
        if self.activity_server is not None:
            await self.activity_server.stop()  # its sockets first: no action reaches a closing game
        sessions = getattr(self, "sessions", None)
        if sessions is not None:
            await sessions.close()
        await super().close()
        await self.computers.close()
        await self.storage.close()


def tune_gc() -> None:
    """After start-up: move what was built so far (modules, discord.py, restored games) out of
    the collector's reach, so a full collection only walks what games made since, and make
    full collections rarer (see GC_YOUNG, GC_OLD)."""
    gc.collect()
    gc.freeze()
    _, middle, _ = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, middle, GC_OLD)
    # A thread drawing a score chart holds the GIL for up to this long while the loop waits
    # to resume after each system call (default 5 ms).
    sys.setswitchinterval(0.001)


async def drain_handlers(within: float) -> None:
    """Wait (up to ``within`` seconds) for the handlers of interactions already received."""
    current = asyncio.current_task()
    running = [task for task in discord_internals.handler_tasks() if task is not current]
    if running:
        _, late = await asyncio.wait(running, timeout=within)
        if late:
            log.warning("stopping with %d interaction(s) still being handled", len(late))


def tune_http(bot: NinesBot, timeout: float) -> None:
    """The HTTP session discord.py made at login: a request that hangs is given up after
    ``timeout`` seconds without a byte (aiohttp's default waits 5 minutes; the websocket keeps
    its own receive timeout), and with metrics on, each answer is counted by route and status
    as it arrives."""
    measured = metrics.active.response_class() if metrics.active is not None else None
    discord_internals.tune_http_session(bot, timeout, measured)
