"""Issue 32: the chaos test of failover, shared by tests/test_chaos.py (a small seeded run) and
bench/chaos.py (a long one).

The Discord double runs in this process with one guild per shard (or more), real bot
processes (``python -m bot``) share one PostgreSQL database, each preferring its own shards
(SHARD_IDS), and scripted people play games in every guild, reading only what Discord shows
them. A seeded random schedule meanwhile sends SIGKILL or SIGTERM to any process at any moment
(during play, a takeover, a handback, an IDENTIFY) and starts it again a random while later.

At the end the checks are read from outside, from the double's records and the database:
every move a person was answered for is stored once at the index its button carried, no
stored move of a person came from nowhere, no interaction was answered twice (the double's
40060) or wrongly (a live game called over or unknown, an apology), every game ends with
exactly one end message and is counted once, and how long each shard went unserved.

With ``Plan.web_tables``, the second person of each table plays at the Activity's web table
instead (testbed/web_tables.py), on whichever process is up: each action acknowledged is
stored once, none refused is stored, and a key resent is answered as the first time.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot.storage import ActionRow, Storage
from engine import Game, Rules, parse_action
from fakecord import FakeDiscord, Interaction, UsageRefused
from fakecord.models import Channel, Guild, Message, User
from fakecord.server import BOT_DEFAULT
from testbed.games import game_id_of, text_of
from testbed.people import enabled_moves, table_message, whose_turn
from testbed.web_tables import SocketAct, WebTable

ROOT = Path(__file__).resolve().parents[1]
LOCALE = json.loads((ROOT / "bot" / "locales" / "en.json").read_text(encoding="utf-8"))

#: Answers that are wrong while the game is live, by their locale key.
WRONG_KEYS = ("error.game_over", "error.unknown_game", "error.game_not_known", "error.unexpected")
#: Any refusal (the move was not played): the fixed part of every error text.
REFUSALS = tuple(
    text.split("{")[0] for key, text in LOCALE.items() if key.startswith("error.") and text
)
MOVE_KINDS = ("play", "xchg", "joker")
#: Discord gives a bot 3 s to acknowledge an interaction; a person waits a little longer
#: before calling it failed.
ACK_WAIT = 4.0
#: A deferred answer ("thinking") is edited in within this.
DEFERRED_WAIT = 20.0
#: Seconds from a process's start to its first IDENTIFY at most, on a busy machine (Python
#: imports, PostgreSQL, logging in): a process up for less is not yet able to serve a shard.
STARTUP_GRACE = 5.0
#: A game that makes no progress this long is stuck: a finding, and the run goes on without it.
STUCK_AFTER = 90.0


@dataclass(frozen=True)
class Plan:
    """What a run does: all of it follows from the seed, but for the processes' own timing."""

    seed: int
    processes: int = 2
    #: Rounds of chaos: each sends SIGKILL or SIGTERM to a random process that is up.
    rounds: int = 3
    #: Seconds from one round to the next, and how long a stopped process stays down.
    gap: tuple[float, float] = (3.0, 8.0)
    down: tuple[float, float] = (0.5, 8.0)
    sigkill_share: float = 0.6
    tables_per_shard: int = 1
    #: Keep opening new games while the rounds last (the long run); else one game per table.
    more_games: bool = False
    start_score: int = 3
    #: The second person of each table plays at the Activity's web table (testbed/web_tables.py)
    #: on whichever process is up, instead of clicking in chat.
    web_tables: bool = False
    #: Seconds of play before the first round.
    warmup: float = 2.0

    @property
    def shards(self) -> int:
        return self.processes  # one shard preferred by each process


@dataclass
class Click:
    """One click of a person, and how Discord showed its answer."""

    game: int
    user: User
    custom_id: str
    inter: Interaction | None
    outcome: str  # answered, refused, unanswered, unsent, or a WRONG_KEYS key
    seen_at: float  # time.monotonic() when the person read the answer (or gave up)

    @property
    def move(self) -> tuple[str, int, str] | None:
        """(kind, n, choice) of a move button, else None."""
        parts = self.custom_id.split(":")
        if len(parts) == 6 and parts[2] in MOVE_KINDS:
            return parts[2], int(parts[4]), parts[5]
        return None

    @property
    def stored_text(self) -> str | None:
        """The action text the stored log holds for this move."""
        move = self.move
        if move is None:
            return None
        kind, _n, choice = move
        return {"play": choice, "xchg": choice, "joker": f"JK:{choice}"}[kind]


@dataclass
class Table:
    guild: Guild
    channel: Channel
    users: list[User]
    rng: random.Random
    games: list[int] = field(default_factory=list)
    ended: dict[int, float] = field(default_factory=dict)  # game -> when its end was seen
    stuck: list[str] = field(default_factory=list)
    #: The second person's web table (Plan.web_tables), else None: they click in chat.
    web: WebTable | None = None


@dataclass
class Outage:
    """A shard without a session (its holder died or stopped) until one served it again."""

    shard: int
    start: float  # seconds since the chaos began
    seconds: float = 0.0
    #: Of those, the seconds during which a process able to serve it was running.
    served_late: float = 0.0


@dataclass
class Round:
    at: float  # seconds since the chaos began
    node: int
    action: str  # SIGKILL, SIGTERM, restart, skipped
    moment: str  # what was going on: play, takeover (a shard unserved), starting


@dataclass
class Figures:
    """What a run measured; ``failures()`` lists what breaks the issue's goals."""

    seed: int
    rounds: list[Round]
    clicks: int
    #: Clicks Discord showed as failed (no answer in time): not wrong, but counted.
    unanswered: int
    moves_answered: int
    lost: list[str]
    doubled: list[str]
    unexplained: list[str]
    timer_moves: int
    double_answers: list[str]
    wrong_answers: list[str]
    games_opened: int
    games_ended: int
    games_counted: int
    end_messages: dict[int, int]
    stuck: list[str]
    outages: list[Outage]
    doubled_sessions: list[int]
    violations: list[str]
    replay_errors: list[str]
    elapsed: float
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


def thinking(inter: Interaction) -> bool:
    """The answer is still Discord's "thinking" placeholder (a deferred answer)."""
    response = inter.response
    return response is not None and response.loading and not response.deleted


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Node:
    """One bot process, started, signalled and started again by the schedule."""

    def __init__(self, index: int, env: dict[str, str], log: Path) -> None:
        self.index, self.env, self.log = index, env, log
        self.proc: subprocess.Popen[bytes] | None = None
        self.started_at = 0.0
        self.deaths = 0

    @property
    def up(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    async def start(self) -> None:
        await self.reap()
        with self.log.open("ab") as out:
            out.write(f"---- start {time.strftime('%H:%M:%S')}\n".encode())
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(  # noqa: ASYNC220 (returns at once)
                [sys.executable, "-m", "bot"], cwd=ROOT, env=self.env, stdout=out, stderr=out
            )
        self.started_at = time.monotonic()

    def signal(self, sig: signal.Signals) -> None:
        assert self.proc is not None
        with self.log.open("ab") as out:
            out.write(f"---- {sig.name} {time.strftime('%H:%M:%S')}\n".encode())
        self.proc.send_signal(sig)
        self.deaths += 1

    async def reap(self, within: float = 15.0) -> None:
        """Wait for the process to end (a SIGTERM lets it finish its work); SIGKILL past
        ``within``."""
        if self.proc is None:
            return
        deadline = time.monotonic() + within
        while self.proc.poll() is None and time.monotonic() < deadline:  # noqa: ASYNC110
            await asyncio.sleep(0.05)
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


class Chaos:
    """One run of ``plan`` against ``database_url`` (an empty PostgreSQL database)."""

    def __init__(self, plan: Plan, database_url: str, workdir: Path | None = None) -> None:
        self.plan = plan
        self.database_url = database_url
        self.workdir = workdir or Path(tempfile.mkdtemp(prefix="nines-chaos-"))
        self.rng = random.Random(plan.seed)
        self.fake = FakeDiscord(shards=plan.shards)
        # Each shard in an IDENTIFY bucket of its own: no 5 s queue at the first start.
        self.fake.gateway.max_concurrency = plan.shards
        self.nodes: list[Node] = []
        self.tables: list[Table] = []
        self.clicks: list[Click] = []
        self.rounds: list[Round] = []
        self.outages: list[Outage] = []
        self._down: dict[int, Outage] = {}  # the shards unserved now
        self._t0 = 0.0
        self._chaos_over = False

    # setting up ----------------------------------------------------------------------------
    def _world(self) -> None:
        fake, number = self.fake, 0
        for shard in range(self.plan.shards):
            for _ in range(self.plan.tables_per_shard):
                number += 1
                if shard == 0 and number == 1:
                    guild, channel = fake.guild, fake.channel
                else:
                    guild = fake.add_guild(f"Server {number}", shard=shard)
                    role = fake.add_role(guild, "Nines", BOT_DEFAULT)
                    fake.add_member(guild, fake.bot, roles=[role])
                    channel = fake.add_channel(guild, "general")
                users = [fake.add_user(f"p{number}{c}", guild=guild) for c in "ab"]
                seed = self.rng.randrange(1 << 30)
                table = Table(guild, channel, users, random.Random(seed))
                if self.plan.web_tables:
                    table.web = WebTable(
                        fake, users[1], guild, channel, self.activity_ports, random.Random(seed)
                    )
                self.tables.append(table)

    def _nodes(self) -> None:
        base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE"))}
        for index in range(self.plan.processes):
            env = {
                **base,
                "DISCORD_TOKEN": self.fake.token,
                "DISCORD_API_BASE": self.fake.api_base,
                "DISCORD_GATEWAY_URL": self.fake.gateway_url,
                "DATABASE_URL": self.database_url,
                "COMPUTER_WORKERS": "0",
                "SYNC_COMMANDS": "auto",
                "LOG_LEVEL": "INFO",
                "SHARD_COUNT": str(self.plan.shards),
                "SHARD_IDS": str(index),
            }
            if self.plan.web_tables:
                env["ACTIVITY_PORT"] = str(free_port())
                env["DISCORD_CLIENT_SECRET"] = self.fake.client_secret
            self.nodes.append(Node(index, env, self.workdir / f"bot{index}.log"))

    def activity_ports(self) -> list[int]:
        """The Activity's ports of the processes up now (any of them serves any socket)."""
        return [int(n.env["ACTIVITY_PORT"]) for n in self.nodes if n.up]

    def served(self, shard: int) -> bool:
        session = self.fake.gateway.by_shard.get(shard)
        return session is not None and session.ws is not None and not session.ws.closed

    async def _until(self, check: Callable[[], object], within: float, what: str) -> None:
        deadline = time.monotonic() + within
        while not check():
            if time.monotonic() > deadline:
                raise AssertionError(f"gave up waiting for {what}; logs in {self.workdir}")
            await asyncio.sleep(0.05)

    # the run -------------------------------------------------------------------------------
    async def run(self) -> Figures:
        started = time.monotonic()
        await self.fake.start()
        if self.plan.web_tables:
            self.fake.enable_activities()
        try:
            self._world()
            self._nodes()
            for node in self.nodes:
                await node.start()
            shards = range(self.plan.shards)
            await self._until(lambda: all(self.served(s) for s in shards), 60, "every shard")
            await self._until(
                lambda: self.fake.commands.find(self.fake.guild.id, "nines"), 30, "the commands"
            )
            self._t0 = time.monotonic()
            monitor = asyncio.create_task(self._watch_shards())
            players = [asyncio.create_task(self._run_table(t)) for t in self.tables]
            try:
                await asyncio.sleep(self.plan.warmup)
                await self._schedule()
                self._chaos_over = True
                # Every process up again for the end of the games.
                for node in self.nodes:
                    if not node.up:
                        await self._restart(node)
                await asyncio.gather(*players)
            finally:
                self._chaos_over = True
                for task in players:
                    task.cancel()
                await asyncio.gather(*players, return_exceptions=True)
                monitor.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await monitor
                self._close_outages()
        finally:
            for table in self.tables:
                if table.web is not None:
                    await table.web.close()
            for node in self.nodes:
                node.stop()
            await self.fake.stop()
        return await self.read_figures(time.monotonic() - started)

    async def _schedule(self) -> None:
        restarts: list[asyncio.Task[None]] = []
        for _ in range(self.plan.rounds):
            await asyncio.sleep(self.rng.uniform(*self.plan.gap))
            # Any process that is up (or starting): one just restarted may be hit again
            # during its IDENTIFY, restore or handback.
            up = [n for n in self.nodes if n.up] or self.nodes
            node = up[self.rng.randrange(len(up))]
            kill = self.rng.random() < self.plan.sigkill_share
            down = self.rng.uniform(*self.plan.down)
            if not node.up:
                self._log(node, "skipped")  # every process is down
                continue
            self._log(node, "SIGKILL" if kill else "SIGTERM")
            node.signal(signal.SIGKILL if kill else signal.SIGTERM)
            restarts.append(asyncio.create_task(self._restart_after(node, down)))
        await asyncio.gather(*restarts)

    async def _restart_after(self, node: Node, down: float) -> None:
        await asyncio.sleep(down)
        await self._restart(node)

    async def _restart(self, node: Node) -> None:
        await node.reap()
        self._log(node, "restart")
        await node.start()

    def _moment(self, node: Node) -> str:
        if time.monotonic() - node.started_at < 5.0:
            return "starting"  # an IDENTIFY, a restore or a handback under way
        if not all(self.served(s) for s in range(self.plan.shards)):
            return "takeover"
        return "play"

    def _log(self, node: Node, action: str) -> None:
        moment = self._moment(node)
        self.rounds.append(Round(time.monotonic() - self._t0, node.index, action, moment))

    async def _watch_shards(self) -> None:
        """When each shard lost its session, when a session served it again, and how long of
        that a process able to serve it was running (up for STARTUP_GRACE: when the schedule
        keeps every process down, no bot can do better)."""
        last = time.monotonic()
        while True:
            now = time.monotonic()
            able = any(n.up and now - n.started_at >= STARTUP_GRACE for n in self.nodes)
            for shard in range(self.plan.shards):
                outage = self._down.get(shard)
                if self.served(shard):
                    if outage is not None:
                        outage.seconds = now - self._t0 - outage.start
                        self.outages.append(self._down.pop(shard))
                elif outage is None:
                    self._down[shard] = Outage(shard, now - self._t0)
                elif able:
                    outage.served_late += now - last
            last = now
            await asyncio.sleep(0.05)

    def _close_outages(self) -> None:
        now = time.monotonic()
        for outage in self._down.values():
            outage.seconds = now - self._t0 - outage.start
            self.outages.append(outage)
        self._down.clear()

    # people --------------------------------------------------------------------------------
    async def press(
        self, action: Callable[[], Awaitable[Interaction]]
    ) -> tuple[Interaction | None, str]:
        """One click or command as a person makes it: sent, then its answer read when Discord
        shows it. Returns the interaction (None: the client refused) and its outcome."""
        try:
            inter = await action()
        except UsageRefused:
            return None, "unsent"
        except RuntimeError as error:
            if "no bot session" not in str(error):
                raise
            return None, "unsent"  # no process serves the shard: Discord would fail it
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(inter.answered.wait(), ACK_WAIT)
        if not inter.acknowledged:
            return inter, "unanswered"
        deadline = time.monotonic() + DEFERRED_WAIT
        while thinking(inter) and time.monotonic() < deadline:  # noqa: ASYNC110
            await asyncio.sleep(0.05)
        if thinking(inter):
            return inter, "unanswered"  # "thinking" forever
        shown = text_of(inter.message) + "".join(text_of(m) for m in inter.followups)
        for key in WRONG_KEYS:
            if LOCALE[key] in shown:
                return inter, key
        if any(refusal in shown for refusal in REFUSALS):
            return inter, "refused"
        return inter, "answered"

    def _messages(self, table: Table, user: User) -> list[Message]:
        return self.fake.visible(user, table.channel)

    def _with_button(self, table: Table, prefix: str) -> Message | None:
        for message in reversed(self._messages(table, table.users[0])):
            if message.ephemeral_for is None and any(
                (b.custom_id or "").startswith(prefix) for b in message.buttons()
            ):
                return message
        return None

    def _channel_tail(self, table: Table, count: int = 3) -> str:
        """The newest public messages of a table's channel, as a person reads them."""
        public = [m for m in self._messages(table, table.users[0]) if m.ephemeral_for is None]
        return " | ".join(
            f"[{m.id}{' edited' if m.edited_timestamp else ''}] {text_of(m)[:400]}"
            for m in public[-count:]
        )

    def end_messages(self, table: Table, game: int) -> list[Message]:
        return [
            m
            for m in self._messages(table, table.users[0])
            if any("game over" in str(e.get("title", "")) for e in m.embeds)
            and any(b.custom_id == f"nines:1:rematch:{game}" for b in m.buttons())
        ]

    async def _run_table(self, table: Table) -> None:
        while True:
            game = await self._open_game(table)
            if game is None:
                return
            await self._play(table, game)
            if not (self.plan.more_games and not self._chaos_over):
                return

    async def _open_game(self, table: Table) -> int | None:
        """A lobby with both people and a computer, started: retried through the chaos."""
        host, guest = table.users
        joined = added = False
        game: int | None = None
        since = time.monotonic()
        while time.monotonic() - since < STUCK_AFTER:
            if game is not None and self._with_button(table, f"nines:1:hand:{game}"):
                table.games.append(game)
                return game
            lobby = self._with_button(table, "nines:1:lobby:")
            if lobby is not None and game_id_of(lobby) in table.games:
                lobby = None
            if lobby is None:
                inter, outcome = await self.press(
                    lambda: self.fake.slash(
                        host, table.channel, "nines start", wait=False, start=self.plan.start_score
                    )
                )
                self._record(table, 0, host, "/nines start", inter, outcome)
                if inter is None or inter.message is None or outcome != "answered":
                    await asyncio.sleep(0.5)
                    continue
                lobby, joined, added = inter.message, False, False
            game = game_id_of(lobby)
            steps = [
                (joined, guest, "Join", "joined"),
                (added, host, f"nines:1:lobby:{game}:cpu-easy", "added"),
                (False, host, "Start", "start"),
            ]
            for done, who, button, name in steps:
                if done:
                    continue
                inter, outcome = await self.press(
                    functools.partial(self.fake.click, who, lobby, button, wait=False)
                )
                self._record(table, game, who, button, inter, outcome)
                if outcome not in ("answered", "refused"):
                    break
                joined |= name == "joined"
                added |= name == "added"
            await self._until_shown(table, f"nines:1:hand:{game}", 3.0)
        table.stuck.append(f"{table.guild.name}: no game could be opened in {STUCK_AFTER:.0f} s")
        return None

    async def _until_shown(self, table: Table, prefix: str, within: float) -> None:
        deadline = time.monotonic() + within
        while self._with_button(table, prefix) is None and time.monotonic() < deadline:  # noqa: ASYNC110
            await asyncio.sleep(0.05)

    async def _play(self, table: Table, game: int) -> None:
        """The people named on the table open their hand and click a legal move, until the
        end message; a click that gets no answer is tried again, as a person would."""
        progress = time.monotonic()
        while not self.end_messages(table, game):
            if time.monotonic() - progress > STUCK_AFTER:
                web = "" if table.web is None else f"; the web table: {table.web.state()}"
                table.stuck.append(
                    f"{table.guild.name} game {game}: no progress for {STUCK_AFTER:.0f} s; "
                    f"the channel shows: {self._channel_tail(table)}{web}"
                )
                return
            found = table_message(self.fake, table.users[0], table.channel)
            if found is not None and game_id_of(found) != game:
                found = None
            user = whose_turn(self.fake, table.users, table.channel) if found else None
            if found is None or user is None:
                await asyncio.sleep(0.1)
                continue
            if table.web is not None and user is table.users[1]:
                if await self._web_move(table, game):
                    progress = time.monotonic()
                continue
            opened, outcome = await self.press(
                functools.partial(self.fake.click, user, found, "My hand", wait=False)
            )
            self._record(table, game, user, "My hand", opened, outcome)
            hand = opened.message if opened is not None and outcome == "answered" else None
            moves = enabled_moves(hand) if hand is not None else []
            if hand is None or not moves:
                await asyncio.sleep(0.2)
                continue
            click = await self._move(table, game, user, hand, table.rng.choice(moves))
            if click.outcome == "answered" and click.inter is not None:
                answer = click.inter.message
                calls = [
                    b.custom_id
                    for b in (answer.buttons() if answer is not None else ())
                    if b.custom_id and ":joker:" in b.custom_id
                ]
                if calls and answer is not None:
                    click = await self._move(table, game, user, answer, table.rng.choice(calls))
                progress = time.monotonic()
        table.ended[game] = time.monotonic()

    async def _web_move(self, table: Table, game: int) -> bool:
        """The web-table person's action when their table says it is theirs; True if acked."""
        web = table.web
        assert web is not None
        latest = await web.latest()
        if latest is not None and latest["game_id"] != game:
            # The socket is at the channel's game before this one: a new hello finds this one.
            await web.reopen()
            latest = None
        hand = None if latest is None else latest["hand"]
        turn = None if latest is None else latest["turn"]
        if (
            latest is None
            or latest["game_id"] != game
            or turn is None
            or hand is None
            or turn["seat"] != hand["seat"]
            or not hand["legal"]
        ):
            await asyncio.sleep(0.1)
            return False
        return (await web.act(game, latest)).acked

    async def _move(
        self, table: Table, game: int, user: User, hand: Message, custom_id: str
    ) -> Click:
        inter, outcome = await self.press(
            lambda: self.fake.click(user, hand, custom_id, wait=False)
        )
        return self._record(table, game, user, custom_id, inter, outcome)

    def _record(
        self,
        table: Table,
        game: int,
        user: User,
        custom_id: str,
        inter: Interaction | None,
        outcome: str,
    ) -> Click:
        click = Click(game, user, custom_id, inter, outcome, time.monotonic())
        self.clicks.append(click)
        return click

    # the checks ----------------------------------------------------------------------------
    async def read_figures(self, elapsed: float) -> Figures:
        """The checks, from the double's records and the database (after the run)."""
        lost: list[str] = []
        doubled: list[str] = []
        unexplained: list[str] = []
        replay_errors: list[str] = []
        timer_moves = counted = 0
        ended: dict[int, float | None] = {}  # game -> when it was stored as ended
        stored_state: list[str] = []  # of the games whose end nobody saw
        played = [c for c in self.clicks if c.move is not None and c.outcome == "answered"]
        # A Joker's first click only asks win or lose: its answer shows the calls.
        played = [
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
        by_index = Counter((c.game, c.move[1]) for c in played if c.move is not None)
        doubled += [
            f"game {g} move {n} answered played {k} times"
            for (g, n), k in by_index.items()
            if k > 1
        ]
        sockets = [a for t in self.tables if t.web is not None for a in t.web.acts]
        key_answers = [
            f"{a.user.name} game {a.game} {a.action}: {a.answers}"
            for a in sockets
            if len(set(a.answers)) > 1
        ]
        storage = await Storage.open(self.database_url)
        try:
            for table in self.tables:
                seat_of = {u.id: i for i, u in enumerate(table.users)}
                for game in table.games:
                    row = await storage.game(game)
                    ended[game] = None if row is None else row.ended_at
                    actions = await storage.actions(game)
                    stored = {a.n: a for a in actions}
                    if len({a.n for a in actions}) != len(actions):
                        doubled.append(f"game {game}: one index stored twice")
                    for click in played:
                        if click.game != game or click.move is None:
                            continue
                        action = stored.get(click.move[1])
                        want = (seat_of[click.user.id], click.stored_text)
                        if action is None or (action.seat, action.action) != want:
                            got = None if action is None else (action.seat, action.action)
                            lost.append(f"game {game} move {click.move[1]}: {want}, stored {got}")
                    if row is None:
                        replay_errors.append(f"game {game} not stored")
                        continue
                    if game not in table.ended:
                        last = actions[-1] if actions else None
                        stored_state.append(
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
                            replay_errors.append(f"game {game}: finished, but its log is not")
                    except Exception as error:  # an illegal stored move
                        replay_errors.append(f"game {game}: {error!r}")
                    clicked = {
                        (c.move[1], seat_of[c.user.id], c.stored_text)
                        for c in self.clicks
                        if c.game == game and c.move is not None and c.inter is not None
                    }
                    web = [a for a in sockets if a.game == game]
                    clicked |= self._web_moves(web, actions, seat_of, lost)
                    for action in actions:
                        if action.seat >= len(table.users) or action.n in forced:
                            continue  # the computer's seat, or a card that played itself
                        if action.by_computer:
                            timer_moves += 1  # the turn timer played for the person
                        elif (action.n, action.seat, action.action) not in clicked:
                            unexplained.append(f"game {game} move {action.n}: {action}")
                rows, _total = await storage.leaderboard(table.guild.id, "nines")
                counted += sum(r.games for r in rows if not r.is_computer) // len(table.users)
        finally:
            await storage.close()
        double_answers = [
            f"{i.user.name} {i.payload['data'].get('custom_id') or i.command_name}"
            for i in self.fake.interactions.values()
            if any(e.code == 40060 for e in i.errors)
        ]
        wrong = [
            f"{c.user.name} {c.custom_id} (game {c.game}): {c.outcome}"
            for c in self.clicks
            if c.outcome in WRONG_KEYS and not self._true_of(c, ended.get(c.game))
        ]
        end_messages = {
            game: len(self.end_messages(table, game))
            for table in self.tables
            for game in table.games
        }
        return Figures(
            seed=self.plan.seed,
            rounds=self.rounds,
            clicks=len(self.clicks),
            unanswered=sum(c.outcome == "unanswered" for c in self.clicks),
            moves_answered=len(played),
            lost=lost,
            doubled=doubled,
            unexplained=unexplained,
            timer_moves=timer_moves,
            double_answers=double_answers,
            wrong_answers=wrong,
            games_opened=sum(len(t.games) for t in self.tables),
            games_ended=sum(len(t.ended) for t in self.tables),
            games_counted=counted,
            end_messages=end_messages,
            stuck=[s for t in self.tables for s in t.stuck] + stored_state,
            outages=self.outages,
            doubled_sessions=list(self.fake.gateway.doubled),
            violations=[str(v) for v in self.fake.violations],
            replay_errors=replay_errors,
            elapsed=elapsed,
            socket_acts=len(sockets),
            socket_acked=sum(a.acked for a in sockets),
            key_answers=key_answers,
            socket_refusals=dict(
                Counter(a.answers[0] for a in sockets if a.answers and not a.acked)
            ),
        )

    @staticmethod
    def _web_moves(
        acts: list[SocketAct],
        actions: list[ActionRow],
        seat_of: dict[int, int],
        lost: list[str],
    ) -> set[tuple[int, int, str | None]]:
        """The stored moves the web-table actions explain, as ``(n, seat, action)``; an
        acknowledged action none stores is lost. The server plays an action at the game's index
        when it arrives (not before the table it was sent from: ``SocketAct.n``), so each is
        matched to the first stored move of that seat and text from there not matched yet. A
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
                    if a.n >= act.n
                    and (a.seat, a.action) == (seat, act.action)
                    and (a.n, a.seat, a.action) not in explained
                ),
                None,
            )
            if match is not None:
                explained.add((match.n, match.seat, match.action))
            elif act.acked:
                lost.append(f"game {act.game}: web-table {act.action} at {act.n} or later")
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

    def log_tail(self, lines: int = 40) -> str:
        """The end of each process's log, for a failure's message."""
        parts = []
        for node in self.nodes:
            text = node.log.read_text(errors="replace").splitlines() if node.log.exists() else []
            parts.append(f"== {node.log}\n" + "\n".join(text[-lines:]))
        return "\n".join(parts)
