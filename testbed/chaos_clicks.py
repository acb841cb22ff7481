"""The people of the chaos run (testbed/chaos.py): at each table, scripted people open games and
click legal moves through the chaos, reading only what Discord shows them, and every click is
recorded with how Discord showed its answer."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from fakecord import FakeDiscord, Interaction, UsageRefused
from fakecord.models import Channel, Guild, Message, User
from testbed.games import game_id_of, text_of
from testbed.people import enabled_moves, table_message, whose_turn
from testbed.web_tables import WebTable

if TYPE_CHECKING:
    from testbed.chaos import Plan

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
#: A game that makes no progress this long is stuck: a finding, and the run goes on without it.
STUCK_AFTER = 90.0


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


def thinking(inter: Interaction) -> bool:
    """The answer is still Discord's "thinking" placeholder (a deferred answer)."""
    response = inter.response
    return response is not None and response.loading and not response.deleted


class Players:
    """The people at every table, their clicks recorded in ``clicks``."""

    def __init__(self, fake: FakeDiscord, plan: Plan, clicks: list[Click]) -> None:
        self.fake, self.plan, self.clicks = fake, plan, clicks
        #: Set once the schedule's rounds are over: no new game from there on.
        self.chaos_over = False

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

    async def run_table(self, table: Table) -> None:
        while True:
            game = await self._open_game(table)
            if game is None:
                return
            await self._play(table, game)
            if not (self.plan.more_games and not self.chaos_over):
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
