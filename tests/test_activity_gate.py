"""The gate's periodic re-check (bot/activity/gate.py) against a budget it cannot spend at
once: a paced round waits for the budget and checks every socket, where an unpaced one (a
hint about one instance) puts off those it cannot afford; no socket is closed for Discord's
(or the budget's) silence. Discord is a stub here: what is under test is the round's pacing,
the bot's own tests (tests/bot/test_activity_signin.py) run the rest against the double."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from bot.activity.budget import TokenBucket
from bot.activity.discord_api import Authorization, DiscordUnavailable, Instance, Person
from bot.activity.gate import Gate
from bot.activity.protocol import Hello

APP = 42


class Budgeted:
    """Discord behind a budget of one call at once, ``per_minute`` after: every token and the
    instance are fine; what the budget cannot afford now raises DiscordUnavailable with its wait."""

    def __init__(self, people: list[int], per_minute: int) -> None:
        self.bucket = TokenBucket(burst=1, per_minute=per_minute)
        self.people = people
        self.asked: list[str] = []

    def _spend(self) -> None:
        wait = self.bucket.take(time.monotonic())
        if wait > 0:
            raise DiscordUnavailable("the budget", wait, local=True)

    async def authorization(self, token: str) -> Authorization:
        self._spend()
        self.asked.append(token)
        user = int(token.removeprefix("token-"))
        return Authorization(APP, frozenset({"identify"}), Person(user, "p", None), 1e12)

    async def instance(self, _app: int, instance_id: str) -> Instance:
        self._spend()
        self.asked.append(instance_id)
        return Instance(instance_id, 1, 2, frozenset(self.people))


@dataclass(eq=False)
class Socket:
    user_id: int
    lang: str = "en"
    sent: list[Any] = field(default_factory=list)
    stopped: bool = False

    @property
    def ws(self) -> Socket:
        return self

    @property
    def closed(self) -> bool:
        return self.stopped

    def send(self, frame: Any) -> None:
        self.sent.append(frame)

    def stop(self) -> None:
        self.stopped = True


def hello(user: int) -> Hello:
    return Hello(f"token-{user}", "inst", 1, 2, None, "en-US")


def watched_gate(people: list[int], per_minute: int) -> tuple[Gate, Budgeted, list[Socket]]:
    api = Budgeted(people, per_minute)
    gate = Gate(api, lambda: APP, recheck_seconds=0.0)  # type: ignore[arg-type]
    sockets = [Socket(user) for user in people]
    for socket in sockets:
        gate.watch(socket, hello(socket.user_id))  # type: ignore[arg-type]
    return gate, api, sockets


async def test_a_paced_round_checks_every_socket_within_the_budget() -> None:
    gate, api, sockets = watched_gate([1, 2, 3, 4], per_minute=1_200)  # 20 a second
    # The tokens' cache lasts 0 s (recheck_seconds): each check asks again.
    assert await gate.recheck(paced=True) == 0
    assert {t for t in api.asked if t.startswith("token-")} == {f"token-{u}" for u in (1, 2, 3, 4)}
    assert not any(s.stopped or s.sent for s in sockets)


async def test_an_unpaced_round_puts_off_what_it_cannot_afford_and_closes_nothing() -> None:
    gate, api, sockets = watched_gate([1, 2, 3, 4], per_minute=60)  # one a second
    assert await gate.recheck() == 0
    # The budget's one call went to the first token; the rest waits for the next round.
    assert api.asked == ["token-1"]
    assert not any(s.stopped or s.sent for s in sockets)
