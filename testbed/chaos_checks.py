"""The checks of the chaos run (testbed/chaos.py), read from outside after it: from the double's
records, what people saw (testbed/chaos_clicks.py), and the database. Every move a person was
answered for is stored once at the index its button carried, no stored move of a person came
from nowhere, no interaction was answered twice or wrongly, every game ends with exactly one end
message and is counted once; a web table's acknowledged action is stored once, a refused one
never, a key answered one way."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.storage import ActionRow, Storage
from engine import Game, Rules, parse_action
from fakecord import FakeDiscord, Message
from testbed.chaos_clicks import WRONG_KEYS, Click, Table
from testbed.chaos_nodes import Outage, Round
from testbed.web_tables import SocketAct


@dataclass
class Figures:
    """What a run measured, filled in by `Checks.read`; ``failures()`` lists what breaks the
    issue's goals."""

    seed: int
    rounds: list[Round]
    outages: list[Outage]
    elapsed: float
    clicks: int = 0
    #: Clicks Discord showed as failed (no answer in time): not wrong, but counted.
    unanswered: int = 0
    moves_answered: int = 0
    lost: list[str] = field(default_factory=list)
    doubled: list[str] = field(default_factory=list)
    unexplained: list[str] = field(default_factory=list)
    timer_moves: int = 0
    double_answers: list[str] = field(default_factory=list)
    wrong_answers: list[str] = field(default_factory=list)
    games_opened: int = 0
    games_ended: int = 0
    games_counted: int = 0
    end_messages: dict[int, int] = field(default_factory=dict)
    stuck: list[str] = field(default_factory=list)
    doubled_sessions: list[int] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    replay_errors: list[str] = field(default_factory=list)
    #: Actions sent from web tables, those acknowledged, and keys answered in two ways.
    socket_acts: int = 0
    socket_acked: int = 0
    key_answers: list[str] = field(default_factory=list)
    #: The web tables' refusals, by the protocol's error code.
    socket_refusals: dict[str, int] = field(default_factory=dict)

    @property
    def max_unserved(self) -> float:
        """The longest a shard went unserved while a process able to serve it was running."""
        return max((o.served_late for o in self.outages), default=0.0)

    @property
    def max_unserved_raw(self) -> float:
        return max((o.seconds for o in self.outages), default=0.0)

    def failures(self, served_within: float = 30.0) -> list[str]:
        found = [
            *(f"lost move: {x}" for x in self.lost),
            *(f"move applied twice: {x}" for x in self.doubled),
            *(f"stored move nobody made: {x}" for x in self.unexplained),
            *(f"answered twice: {x}" for x in self.double_answers),
            *(f"wrong answer: {x}" for x in self.wrong_answers),
            *(f"stuck: {x}" for x in self.stuck),
            *(f"replay: {x}" for x in self.replay_errors),
            *(f"Discord would refuse: {x}" for x in self.violations),
            *(f"key answered two ways: {x}" for x in self.key_answers),
        ]
        found += [f"game {g}: {n} end messages" for g, n in self.end_messages.items() if n != 1]
        if self.games_ended != self.games_opened:
            found.append(f"{self.games_opened} games opened, {self.games_ended} ended")
        if self.games_counted != self.games_ended:
            found.append(f"{self.games_ended} games ended, {self.games_counted} counted")
        found += [
            f"shard {o.shard} unserved {o.served_late:.1f} s with a process up (from "
            f"+{o.start:.1f} s, {o.seconds:.1f} s in all)"
            for o in self.outages
            if o.served_late > served_within
        ]
        if self.doubled_sessions:
            found.append(f"two sessions at once on shard(s) {self.doubled_sessions}")
        return found

    def summary(self) -> str:
        actions = Counter(r.action for r in self.rounds)
        moments = Counter(r.moment for r in self.rounds if r.action.startswith("SIG"))
        lines = [
            f"seed {self.seed}: {len(self.rounds) - actions['restart']} rounds in "
            f"{self.elapsed:.0f} s: {actions['SIGKILL']} SIGKILL, {actions['SIGTERM']} SIGTERM, "
            f"{actions['skipped']} with every process down; {actions['restart']} restarts; "
            f"signals during {dict(moments)}",
            f"clicks {self.clicks} ({self.unanswered} failed unanswered), "
            f"moves answered played {self.moves_answered}, "
            f"timer moves {self.timer_moves}",
            f"lost moves {len(self.lost)}, doubled moves {len(self.doubled)}, "
            f"stored moves nobody made {len(self.unexplained)}",
            f"double answers (40060) {len(self.double_answers)}, "
            f"wrong answers {len(self.wrong_answers)}",
            f"games opened {self.games_opened}, ended {self.games_ended}, "
            f"counted {self.games_counted}, end messages "
            f"{sum(self.end_messages.values())}, stuck {len(self.stuck)}",
            f"web-table actions {self.socket_acts} ({self.socket_acked} acknowledged, refused "
            f"{self.socket_refusals}), keys answered two ways {len(self.key_answers)}",
            f"shard outages {len(self.outages)}, max unserved {self.max_unserved:.1f} s with "
            f"a process up ({self.max_unserved_raw:.1f} s in all), "
            f"two sessions on a shard {len(self.doubled_sessions)}",
        ]
        return "\n".join(lines)


class Checks:
    """The checks of one run, from the double (``fake``), the people's ``tables`` and
    ``clicks``, and the database."""

    def __init__(
        self,
        fake: FakeDiscord,
        database_url: str,
        tables: list[Table],
        clicks: list[Click],
        end_messages: Callable[[Table, int], list[Message]],
    ) -> None:
        self.fake, self.database_url, self.tables, self.clicks = fake, database_url, tables, clicks
        self.end_messages = end_messages

    async def read(
        self, seed: int, rounds: list[Round], outages: list[Outage], elapsed: float
    ) -> Figures:
        found = Figures(seed, rounds, outages, elapsed)
        played = self._moves_played()
        sockets = [a for t in self.tables if t.web is not None for a in t.web.acts]
        self._what_people_saw(found, played)
        self._what_web_tables_saw(found, sockets)
        ended = await self._what_is_stored(found, played, sockets)
        found.wrong_answers = [
            f"{c.user.name} {c.custom_id} (game {c.game}): {c.outcome}"
            for c in self.clicks
            if c.outcome in WRONG_KEYS and not self._true_of(c, ended.get(c.game))
        ]
        return found

    def _moves_played(self) -> list[Click]:
        """The moves people were answered for as played."""
        played = [c for c in self.clicks if c.move is not None and c.outcome == "answered"]
        # A Joker's first click only asks win or lose: its answer shows the calls.
        return [
            c
            for c in played
            if not (
                c.move is not None
                and c.move[0] == "play"
                and c.move[2] == "JK"
                and c.inter is not None
                and c.inter.message is not None
                and any(":joker:" in (b.custom_id or "") for b in c.inter.message.buttons())
            )
        ]

    def _what_people_saw(self, found: Figures, played: list[Click]) -> None:
        """Clicks and their answers, games opened and ended, and what the double recorded."""
        found.clicks = len(self.clicks)
        found.unanswered = sum(c.outcome == "unanswered" for c in self.clicks)
        found.moves_answered = len(played)
        by_index = Counter((c.game, c.move[1]) for c in played if c.move is not None)
        found.doubled += [
            f"game {g} move {n} answered played {k} times"
            for (g, n), k in by_index.items()
            if k > 1
        ]
        found.double_answers = [
            f"{i.user.name} {i.payload['data'].get('custom_id') or i.command_name}"
            for i in self.fake.interactions.values()
            if any(e.code == 40060 for e in i.errors)
        ]
        found.games_opened = sum(len(t.games) for t in self.tables)
        found.games_ended = sum(len(t.ended) for t in self.tables)
        found.end_messages = {
            game: len(self.end_messages(table, game))
            for table in self.tables
            for game in table.games
        }
        found.stuck = [s for t in self.tables for s in t.stuck]
        found.doubled_sessions = list(self.fake.gateway.doubled)
        found.violations = [str(v) for v in self.fake.violations]

    @staticmethod
    def _what_web_tables_saw(found: Figures, sockets: list[SocketAct]) -> None:
        found.socket_acts = len(sockets)
        found.socket_acked = sum(a.acked for a in sockets)
        found.key_answers = [
            f"{a.user.name} game {a.game} {a.action}: {a.answers}"
            for a in sockets
            if len(set(a.answers)) > 1
        ]
        found.socket_refusals = dict(
            Counter(a.answers[0] for a in sockets if a.answers and not a.acked)
        )

    async def _what_is_stored(
        self, found: Figures, played: list[Click], sockets: list[SocketAct]
    ) -> dict[int, float | None]:
        """Each game's stored log against what people were answered; when each game was
        stored as ended (None: not ended)."""
        ended: dict[int, float | None] = {}
        storage = await Storage.open(self.database_url)
        try:
            for table in self.tables:
                seat_of = {u.id: i for i, u in enumerate(table.users)}
                for game in table.games:
                    row = await storage.game(game)
                    ended[game] = None if row is None else row.ended_at
                    actions = await storage.actions(game)
                    self._check_log(found, game, actions, played, seat_of)
                    if row is None:
                        found.replay_errors.append(f"game {game} not stored")
                        continue
                    if game not in table.ended:
                        last = actions[-1] if actions else None
                        found.stuck.append(
                            f"game {game} stored {row.status}, {len(actions)} moves, the last "
                            f"{last}, turn deadline {row.turn_deadline}"
                        )
                    # The stored log replays (a move applied twice would be illegal), and says
                    # which moves were forced: a last card plays itself, nobody clicks it.
                    forced: set[int] = set()
                    try:
                        replay = Game(Rules.from_dict(row.rules), row.seed)
                        for action in actions:
                            seat = action.seat
                            if len(replay.legal_actions(seat)) == len(replay.hands[seat]) == 1:
                                forced.add(action.n)
                            replay.apply(action.seat, parse_action(action.action))
                        if row.status == "finished" and not replay.over:
                            found.replay_errors.append(f"game {game}: finished, but its log is not")
                    except Exception as error:  # an illegal stored move
                        found.replay_errors.append(f"game {game}: {error!r}")
                    clicked = {
                        (c.move[1], seat_of[c.user.id], c.stored_text)
                        for c in self.clicks
                        if c.game == game and c.move is not None and c.inter is not None
                    }
                    web = [a for a in sockets if a.game == game]
                    clicked |= self._web_moves(web, actions, seat_of, found.lost)
                    for action in actions:
                        if action.seat >= len(table.users) or action.n in forced:
                            continue  # the computer's seat, or a card that played itself
                        if action.by_computer:
                            found.timer_moves += 1  # the turn timer played for the person
                        elif (action.n, action.seat, action.action) not in clicked:
                            found.unexplained.append(f"game {game} move {action.n}: {action}")
                rows, _total = await storage.leaderboard(table.guild.id, "nines")
                found.games_counted += sum(r.games for r in rows if not r.is_computer) // len(
                    table.users
                )
        finally:
            await storage.close()
        return ended

    @staticmethod
    def _check_log(
        found: Figures,
        game: int,
        actions: list[ActionRow],
        played: list[Click],
        seat_of: dict[int, int],
    ) -> None:
        """Every move answered played is stored once, at its index, as clicked."""
        stored = {a.n: a for a in actions}
        if len({a.n for a in actions}) != len(actions):
            found.doubled.append(f"game {game}: one index stored twice")
        for click in played:
            if click.game != game or click.move is None:
                continue
            action = stored.get(click.move[1])
            want = (seat_of[click.user.id], click.stored_text)
            if action is None or (action.seat, action.action) != want:
                got = None if action is None else (action.seat, action.action)
                found.lost.append(f"game {game} move {click.move[1]}: {want}, stored {got}")

    @staticmethod
    def _web_moves(
        acts: list[SocketAct],
        actions: list[ActionRow],
        seat_of: dict[int, int],
        lost: list[str],
    ) -> set[tuple[int, int, str | None]]:
        """The stored moves the web-table actions explain, as ``(n, seat, action)``; an
        acknowledged action none stores is lost. The server plays an action only on the table it
        was made on (``SocketAct.n``, else refused as out of date), so each is matched to the
        stored move at that index, of that seat and text. A
        refused one explains nothing: a stored move it made shows as a move nobody made. One
        with no answer may have been stored (the process died before answering)."""
        explained: set[tuple[int, int, str | None]] = set()
        for act in acts:
            if act.answers and not act.acked:
                continue
            seat = seat_of[act.user.id]
            match = next(
                (
                    a
                    for a in actions
                    if a.n == act.n
                    and (a.seat, a.action) == (seat, act.action)
                    and (a.n, a.seat, a.action) not in explained
                ),
                None,
            )
            if match is not None:
                explained.add((match.n, match.seat, match.action))
            elif act.acked:
                lost.append(f"game {act.game}: web-table {act.action} at {act.n}")
        return explained

    @staticmethod
    def _true_of(click: Click, ended_at: float | None) -> bool:
        """ "That game is over" (or not known) is true once the game was stored as ended, before
        the answer (the double's clock is wall time, as the bot's)."""
        inter = click.inter
        return (
            click.outcome != "error.unexpected"
            and ended_at is not None
            and inter is not None
            and inter.acked_at is not None
            and inter.acked_at >= ended_at
        )
