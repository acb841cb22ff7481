"""Every open game of the process (``Sessions``): by id and by channel, opened, restored after
a restart or a shard's takeover, resumed, told of their people's preferences, and closed."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TypeVar

from engine import Game, Rules, parse_action

from ..storage import Seat
from .session import Deps, GameSession
from .state import DEFAULT_TURN_SECONDS, stored_rules
from .values import Change, GameLost, SeatInfo

log = logging.getLogger(__name__)

T = TypeVar("T")


class Sessions:
    """Every open game of the process, by id and by channel."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps
        self._by_id: dict[int, GameSession] = {}
        #: Set when no restore is under way: a click that finds no game waits for it.
        self._restored = asyncio.Event()
        self._restored.set()
        self._restoring = 0
        self._by_channel: dict[int, GameSession] = {}
        #: Told when a game starts running here or is found in a new channel (a lobby
        #: opened, a game restored or taken over, a table moved to its thread): the
        #: Activity's pages waiting in a channel with no game sit down at it
        #: (bot/activity/waiting.py). Must not block.
        self.opened: Callable[[GameSession], None] | None = None
        #: Told of each session that closes (its game ended), e.g. a tournament whose table it
        #: was (bot/tournament/runner.py). Called, not awaited: a listener starts its own task.
        self.closed_listeners: list[Callable[[GameSession], None]] = []
        #: Awaited with the sessions of each restore, before anything is shown of them: what
        #: a game keeps beside its row (a duplicate match's earlier games,
        #: bot/game/duplicate_match.py) is read again.
        self.restore_hooks: list[Callable[[list[GameSession]], Awaitable[None]]] = []

    def __len__(self) -> int:
        return len(self._by_id)

    def get(self, game_id: int) -> GameSession | None:
        session = self._by_id.get(game_id)
        return None if session is None or session.closed else session

    def in_channel(self, channel_id: int) -> GameSession | None:
        session = self._by_channel.get(channel_id)
        return self.get(session.id) if session else None

    def all(self) -> list[GameSession]:
        return [s for s in list(self._by_id.values()) if self.get(s.id)]

    def seated(self, guild_id: int | None, user_id: int) -> GameSession | None:
        """The open lobby or game of this server where ``user_id`` has a seat, if any."""
        for session in self.all():
            if session.private:
                continue  # a daily is played apart from the server's games
            if session.guild_id == guild_id and session.seat_of(user_id) is not None:
                return session
        return None

    def add(self, session: GameSession) -> None:
        """Run ``session`` here: found by its id, its table's channel and its lobby's, until
        it closes."""
        session._registry = self
        self._by_id[session.id] = session
        self._by_channel[session.channel_id] = session
        # A game in its own thread is found from its lobby's channel too (after a restart).
        self._by_channel.setdefault(session.lobby_channel_id, session)
        if self.opened is not None:
            self.opened(session)

    def move_to_thread(self, session: GameSession, thread_id: int) -> None:
        """``session``'s table now runs in a thread (``GameSession.move_to_thread``); the
        lobby's channel still finds it."""
        session.channel_id = thread_id
        self._by_channel[thread_id] = session
        self._by_channel[session.lobby_channel_id] = session
        if self.opened is not None:
            self.opened(session)

    def forget(self, session: GameSession) -> None:
        """``session`` closed (``GameSession.close``): it is found no more."""
        if self._by_id.get(session.id) is session:
            del self._by_id[session.id]
        for channel_id in (session.channel_id, session.lobby_channel_id):
            if self._by_channel.get(channel_id) is session:
                del self._by_channel[channel_id]
        for listener in self.closed_listeners:
            listener(session)

    async def open_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        thread_id: int | None,
        rules: Rules,
        host_id: int,
        host_name: str,
        language: str,
        turn_seconds: float,
    ) -> GameSession:
        """A new lobby with its host seated. Raises ChannelBusy if the channel has a game."""
        storage = self.deps.storage
        row = await storage.create_game(
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            kind=rules.game,
            rules=rules.to_dict(),
            seed=random.SystemRandom().getrandbits(62),
            host_id=host_id,
            language=language,
            seats=[Seat(0, host_name, host_id)],  # stored with the game: one write (issue 31)
        )
        session = GameSession(
            row,
            [SeatInfo(host_name, host_id)],
            self.deps,
            players=rules.players,
            turn_seconds=turn_seconds,
        )
        session.fence = self.deps.fence(guild_id)
        await session.timer.arm()
        self.add(session)
        return session

    async def restore(self, serves: Callable[[int], bool] | None = None) -> list[GameSession]:
        """Rebuild every open game from storage after a start; timers resume. Ended games
        whose end their channel was not told yet come back too, closed, to be announced.
        ``serves`` (a sharded bot): only the games of the guilds it says this process serves,
        and not those it already runs."""
        self._restoring += 1
        self._restored.clear()
        try:
            return await self._restore(serves)
        finally:
            self._restoring -= 1
            if not self._restoring:
                self._restored.set()

    @property
    def restoring(self) -> bool:
        return not self._restored.is_set()

    async def restored(self, within: float) -> bool:
        """Wait at most ``within`` seconds for the restores under way; whether they ended."""
        try:
            await asyncio.wait_for(self._restored.wait(), within)
        except TimeoutError:
            return False
        return True

    async def _restore(self, serves: Callable[[int], bool] | None) -> list[GameSession]:
        storage = self.deps.storage
        restored = []
        timers: dict[int, float] = {}  # per guild: its turn timer setting
        rows = [*await storage.live_games(), *await storage.unannounced_games()]
        dailies = await storage.daily_games(row.id for row in rows)
        for row in rows:
            if serves is not None and (not serves(row.guild_id) or row.id in self._by_id):
                continue
            seats = [
                SeatInfo(s.name, s.user_id, s.difficulty, s.away, s.timeouts)
                for s in await storage.seats(row.id)
            ]
            rules = stored_rules(row)
            game = None
            if row.status != "lobby":
                stored = await storage.actions(row.id)
                try:
                    actions = [(a.seat, parse_action(a.action)) for a in stored]
                    game = Game.replay(rules, row.seed, actions)
                except Exception:
                    log.exception("game %s does not replay; abandoning it", row.id)
                    await storage.abandon_game(
                        row.id, "corrupt", fence=self.deps.fence(row.guild_id)
                    )
                    row = replace(row, status="abandoned", end_reason="corrupt")
            session = GameSession(
                row,
                seats,
                self.deps,
                players=rules.players,
                turn_seconds=await self._turn_seconds(row.guild_id, timers),
                game=game,
            )
            session.fence = self.deps.fence(row.guild_id)
            session.private = row.id in dailies
            if row.status == "live":
                await session.load_preferences()
            if row.is_open:
                self.add(session)
            else:
                session.closed = True  # ended: only its announcement is owed
            restored.append(session)
        for hook in self.restore_hooks:
            await hook(restored)
        return restored

    async def _turn_seconds(self, guild_id: int, known: dict[int, float]) -> float:
        if guild_id not in known:
            stored = await self.deps.storage.get_guild_settings(guild_id)
            known[guild_id] = float(stored.get("turn_timer") or DEFAULT_TURN_SECONDS)
        return known[guild_id]

    async def autoplay_changed(self, user_id: int, on: bool) -> list[tuple[GameSession, Change]]:
        """A person changed their autoplay preference (stored by the caller): their seats in
        the games this process runs follow it at once, and a forced card already due plays
        now. Each game's change, to show."""

        async def follow(session: GameSession, seat: int) -> tuple[GameSession, Change] | None:
            session.seats[seat].autoplay = on
            if session.status != "live" or not session.plays_itself():
                return None
            try:
                return session, await session.run_computers()
            except GameLost:
                return None  # logged; its shard's holder runs it

        return await self._each_seat_of(user_id, follow)

    async def trumps_first_changed(self, user_id: int, on: bool) -> list[tuple[GameSession, int]]:
        """A person changed how their hand is sorted (stored by the caller): their seats in
        the games this process runs follow it at once. Each game and seat, to redraw."""

        async def follow(session: GameSession, seat: int) -> tuple[GameSession, int] | None:
            session.seats[seat].trumps_first = on
            return (session, seat) if session.status == "live" else None

        return await self._each_seat_of(user_id, follow)

    async def text_cards_changed(self, user_id: int, on: bool) -> list[tuple[GameSession, int]]:
        """A person changed whether their hand shows text cards (stored by the caller): as
        ``trumps_first_changed``, each live game and seat, to redraw."""

        async def follow(session: GameSession, seat: int) -> tuple[GameSession, int] | None:
            session.seats[seat].text_cards = on
            return (session, seat) if session.status == "live" else None

        return await self._each_seat_of(user_id, follow)

    async def _each_seat_of(
        self, user_id: int, follow: Callable[[GameSession, int], Awaitable[T | None]]
    ) -> list[T]:
        """``follow(session, seat)`` for the person's seat in each open game this process
        runs, under that game's lock; what it returned, but None."""
        followed = []
        for session in self.all():
            seat = session.seat_of(user_id)
            if seat is None:
                continue
            async with session.lock:
                if session.closed:
                    continue
                result = await follow(session, seat)
            if result is not None:
                followed.append(result)
        return followed

    def let_go(self, serves: Callable[[int], bool]) -> int:
        """Stop running the games of the guilds ``serves`` no longer covers (their shard went
        to another process, which restores them); how many."""
        gone = [s for s in self._by_id.values() if not serves(s.guild_id)]
        for session in gone:
            session.close()
        return len(gone)

    async def close(self) -> None:
        for session in list(self._by_id.values()):
            session.close()
        # Let cancelled timers finish so nothing is left pending at shutdown.
        await asyncio.sleep(0)

    async def resume(self, restored: list[GameSession]) -> None:
        """Once connected: bring every restored game's channel up to date, saying the game was
        restored, and resume its timers. Ended games whose end was not told get it now."""
        presenter = self.deps.presenter
        for session in restored:
            try:
                async with session.lock:
                    if session.closed:  # ended before its channel was told
                        ended = "finished" if session.status == "finished" else session.end_reason
                        await presenter.show(session, Change(restored=True, ended=ended))
                        continue
                    if session.status == "lobby":
                        await presenter.refresh_lobby(session)
                        session.timer.resume()
                        continue
                    change = Change(restored=True)
                    game = session.game
                    assert game is not None
                    if game.over:  # stopped between its last move and its result
                        change.extend(await session._finish())
                    elif session.plays_itself():
                        change.extend(await session.run_computers())
                    elif session.deadline is not None and session.deadline <= session.deps.clock():
                        # The turn ran out while the bot was down: time it out now, in the
                        # same table edit that says the game was restored.
                        change.extend(await session.time_out())
                    else:
                        session.timer.resume()  # a deadline that passed while down fires now
                    await presenter.show(session, change)
            except GameLost:
                continue  # logged; taken over again meanwhile
            except Exception:
                log.exception("could not restore game %s", session.id)
