"""Duplicate at a table of friends (issue 47): ``/nines start duplicate`` plays the game's deals
again with the seats rotated, so each player holds each seat's cards once, and scores each hand
against the others who held the same cards (``engine/duplicate.py``).

A match is ``players`` games from one seed: rotation ``r`` seats the player of the first game's
seat ``o`` at seat ``(o + r) % players``, so the deals (a pure function of the seed and the
hand's number) come round to everyone. Each rotation starts when the one before it ends; the
rotation is stored with its game (storage: ``duplicate_games``, unique per match and rotation),
so a restart between two rotations starts the next once, and only once. The last game's end
shows each player's raw scores (their final score of each game) and their duplicate result:
their matchpoints, board by board, over the tops (the others who held that board).

Each game's session knows the games of its match before it (``GameSession.duplicate``, an
``engine.duplicate.Rotations``: set when the lobby opens, when the next rotation starts, and
when a restart restores the game), so its sheet shows the running duplicate result beside the
raw scores (``bot/table/table_model.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Game, Rules, parse_action
from engine.duplicate import BoardScore, GamePoints, Rotations, board_points, total_share

from ..storage import IntegrityViolation, Seat
from .session import GameSession
from .sessions import Sessions
from .values import Change, SeatInfo


@dataclass(frozen=True, slots=True)
class MatchPlayer:
    """One player of a match (by their seat in its first game): their final score in each
    game, and their duplicate result."""

    name: str
    raw: tuple[int, ...]
    boards: tuple[BoardScore, ...]

    @property
    def share(self) -> float | None:
        return total_share(self.boards)


def rotated(seats: list[SeatInfo]) -> list[SeatInfo]:
    """The next rotation's seats: each one seat further round the table."""
    n = len(seats)
    moved = [seats[(i - 1) % n] for i in range(n)]
    return [SeatInfo(s.name, s.user_id, s.difficulty) for s in moved]


def score_match(games: list[Game], names: list[str]) -> list[MatchPlayer]:
    """Each player of the first game's seats (``names``), scored over the match's games."""
    n = len(names)
    scored = Rotations(len(games), tuple(points_of(game) for game in games)).scored()
    players = []
    for origin, name in enumerate(names):
        boards: list[BoardScore] = []
        raw = []
        for r, game in enumerate(games):
            seat = (origin + r) % n
            boards += scored[r][seat]
            raw.append(game.scores[game.rules.unit_of(seat)])
        players.append(MatchPlayer(name, tuple(raw), tuple(boards)))
    return players


def points_of(game: Game) -> GamePoints:
    """A game's board points, seat by seat."""
    return tuple(board_points(game, seat) for seat in range(game.rules.players))


class DuplicateMatches:
    """The duplicate matches of the games this process runs."""

    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions
        sessions.restore_hooks.append(self.restored)

    async def begin(self, session: GameSession) -> None:
        """A lobby opened as a duplicate match: its game is the first rotation."""
        await self.sessions.deps.storage.add_duplicate_game(session.id, 0, session.id)
        session.duplicate = Rotations(session.players)

    async def restored(self, sessions: list[GameSession]) -> None:
        """After a restart: each restored game of a match knows the match's games before it."""
        storage = self.sessions.deps.storage
        found = await storage.duplicates_of(s.id for s in sessions)
        for session in sessions:
            if session.id in found:
                match_id, rotation = found[session.id]
                games = await self.games(match_id, rotation)
                if games is not None:
                    played = tuple(points_of(g) for g in games)
                    session.duplicate = Rotations(session.players, played)

    async def games(self, match_id: int, rotations: int | None = None) -> list[Game] | None:
        """The match's first ``rotations`` games (None: all), replayed; None if one of them
        is not finished."""
        storage = self.sessions.deps.storage
        games = []
        for game_id in (await storage.duplicate_games(match_id))[:rotations]:
            row = await storage.game(game_id)
            if row is None or row.status != "finished":
                return None
            stored = [(a.seat, parse_action(a.action)) for a in await storage.actions(game_id)]
            games.append(Game.replay(Rules.from_dict(row.rules), row.seed, stored))
        return games

    async def rotation_of(self, game_id: int) -> tuple[int, int] | None:
        return await self.sessions.deps.storage.duplicate_of(game_id)

    async def next_game(self, ended: GameSession) -> tuple[GameSession, Change] | None:
        """The next rotation of a finished game's match, started (its computers' first turns
        played and stored); None if the game is not in a match, was its last rotation, or the
        next one was started already (by this process before a restart, or another)."""
        storage = self.sessions.deps.storage
        found = await storage.duplicate_of(ended.id)
        if found is None or ended.status != "finished":
            return None
        match_id, rotation = found
        if rotation + 1 >= ended.players or len(await storage.duplicate_games(match_id)) > (
            rotation + 1
        ):
            return None
        seats = rotated(ended.seats)
        row = await storage.create_game(
            guild_id=ended.guild_id,
            channel_id=ended.lobby_channel_id,
            thread_id=None if ended.channel_id == ended.lobby_channel_id else ended.channel_id,
            kind=ended.rules.game,
            rules=ended.rules.to_dict(),
            seed=ended.seed,
            host_id=ended.host_id,
            language=ended.language,
            seats=[
                Seat(
                    i,
                    s.name,
                    user_id=s.user_id,
                    is_computer=s.is_computer,
                    difficulty=s.difficulty,
                )
                for i, s in enumerate(seats)
            ],
        )
        try:
            await storage.add_duplicate_game(match_id, rotation + 1, row.id)
        except IntegrityViolation:
            await storage.abandon_game(row.id, "cancelled")
            return None
        session = GameSession(
            row, seats, self.sessions.deps, players=ended.players, turn_seconds=ended.turn_seconds
        )
        session.fence = self.sessions.deps.fence(ended.guild_id)
        played = await self.games(match_id, rotation + 1) or []
        session.duplicate = Rotations(ended.players, tuple(points_of(g) for g in played))
        self.sessions.add(session)
        async with session.lock:
            change = await session.lobby.start(ended.host_id)
            change.extend(await session.run_computers())
        return session, change

    async def result(self, ended: GameSession) -> list[MatchPlayer] | None:
        """A match's result, once its last rotation is finished; None before (or not a
        match)."""
        storage = self.sessions.deps.storage
        found = await storage.duplicate_of(ended.id)
        if found is None or found[1] + 1 < ended.players:
            return None
        games = await self.games(found[0])
        if games is None:
            return None
        first = await storage.seats(found[0])
        return score_match(games, [s.name for s in first])


__all__ = ["DuplicateMatches", "MatchPlayer", "points_of", "rotated", "score_match"]
