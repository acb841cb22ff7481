"""Issue 44: what Discord said of a web table's token is stored (migration 0017) so a restart
finds it: keyed by the token's hash (the token itself never written), ignored once its trust
has run out, swept after. On SQLite and PostgreSQL; and the gate (bot/activity/gate.py) of a
restarted process signs the same tokens in without asking Discord who they are."""

from __future__ import annotations

import time

from bot.activity.discord_api import Authorization, Instance, Person
from bot.activity.gate import Admitted, Gate
from bot.activity.protocol import Hello
from bot.storage import Storage, StoredToken, token_hash
from tests.storage_backends import Backend
from tests.test_storage import Clock

APP = 42
TOKEN = "Xy3kQ9w_bearer-token-of-carol"


def stored(trusted_until: float, *, user_id: int = 1000) -> StoredToken:
    return StoredToken(
        APP, frozenset({"identify"}), user_id, "carol", None, trusted_until + 600, trusted_until
    )


async def test_a_token_is_kept_by_its_hash_until_its_trust_runs_out(backend: Backend) -> None:
    clock = Clock()
    storage = await backend.open(now=clock)
    try:
        assert await storage.stored_token(TOKEN) is None
        row = stored(clock.t + 300)
        await storage.store_token(TOKEN, row)
        assert await storage.stored_token(TOKEN) == row
        assert await storage.stored_token(TOKEN + "x") is None
        # The database holds the token's SHA-256, nowhere the token.
        assert await backend.column("SELECT token_hash FROM activity_tokens") == [token_hash(TOKEN)]
        assert len(token_hash(TOKEN)) == 64 and TOKEN not in token_hash(TOKEN)
        # Stored again (a re-check): replaced, one row.
        again = stored(clock.t + 600, user_id=1000)
        await storage.store_token(TOKEN, again)
        assert await storage.stored_token(TOKEN) == again
        # A second token, trusted a shorter while.
        await storage.store_token("other", stored(clock.t + 100, user_id=1001))
        clock.t += 200
        assert await storage.stored_token("other") is None  # ignored once its trust ran out
        assert await storage.stored_token(TOKEN) == again
        assert await storage.forget_untrusted_tokens() == 1  # swept
        assert await backend.column("SELECT user_id FROM activity_tokens") == [1000]
        await storage.forget_token(TOKEN)
        assert await storage.stored_token(TOKEN) is None
    finally:
        await storage.close()


class Discord:
    """Discord's two answers the gate asks for, counted."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    async def authorization(self, token: str) -> Authorization:
        self.asked.append("oauth2/@me")
        return Authorization(
            APP, frozenset({"identify"}), Person(1000, "carol", None), time.monotonic() + 3600
        )

    async def instance(self, _app: int, instance_id: str) -> Instance:
        self.asked.append("instance")
        return Instance(instance_id, 5, 6, frozenset({1000}))


async def test_a_restarted_gate_finds_the_token_in_the_database(backend: Backend) -> None:
    hello = Hello(TOKEN, "inst", 5, 6, None, "en-US")
    first, second = await backend.open(), await backend.open()
    try:
        discord = Discord()
        gate = Gate(discord, lambda: APP, 300, first)  # type: ignore[arg-type]
        assert isinstance(await gate.check(hello), Admitted)
        assert discord.asked == ["oauth2/@me", "instance"]
        # Another process (a restart): its memory is empty, the database is not.
        restarted = Gate(discord, lambda: APP, 300, second)  # type: ignore[arg-type]
        verdict = await restarted.check(hello)
        assert isinstance(verdict, Admitted) and verdict.person == Person(1000, "carol", None)
        assert discord.asked == ["oauth2/@me", "instance", "instance"]
        # Still trusted: nothing to sweep.
        assert await first.forget_untrusted_tokens() == 0
    finally:
        await first.close()
        await second.close()


async def test_a_token_past_its_trust_is_asked_of_discord_again(backend: Backend) -> None:
    clock = Clock()
    storage = await backend.open(now=clock)
    try:
        clock.t = time.time()
        discord = Discord()
        gate = Gate(discord, lambda: APP, 60, storage)  # type: ignore[arg-type]
        assert await gate.authorization(TOKEN) is not None
        # Trusted two rounds of re-checks and a round's slack; past that the row is ignored.
        assert gate.stored_trust() == 2 * 60 + 60
        clock.t = time.time() + 200
        restarted = Gate(discord, lambda: APP, 60, storage)  # type: ignore[arg-type]
        assert await restarted.authorization(TOKEN) is not None
        assert discord.asked == ["oauth2/@me", "oauth2/@me"]
    finally:
        await storage.close()


async def test_a_foreign_token_is_not_stored(tmp_path: object) -> None:
    storage = await Storage.open(f"{tmp_path}/nines.sqlite3")
    try:
        gate = Gate(Discord(), lambda: APP + 1, 300, storage)  # type: ignore[arg-type]
        verdict = await gate.check(Hello(TOKEN, "inst", 5, 6, None, "en-US"))
        assert not isinstance(verdict, Admitted) and verdict.code == "auth"
        assert await storage.stored_token(TOKEN) is None
    finally:
        await storage.close()


async def test_a_round_of_rechecks_asks_discord_not_the_database(backend: Backend) -> None:
    """The stored answer stands in for the memory a restart lost, never for Discord's word at
    a re-check: a round asks Discord for a token whose copy in memory ran out."""
    hello = Hello(TOKEN, "inst", 5, 6, None, "en-US")
    storage = await backend.open()
    try:
        discord = Discord()
        gate = Gate(discord, lambda: APP, 300, storage)  # type: ignore[arg-type]
        assert isinstance(await gate.check(hello), Admitted)
        gate.tokens.clear()  # its copy in memory ran out
        gate.instances.clear()
        assert isinstance(await gate.check(hello), Admitted)  # a hello: from the database
        assert discord.asked == ["oauth2/@me", "instance", "instance"]
        gate.tokens.clear()
        assert isinstance(await gate.check(hello, stored=False), Admitted)  # a round's check
        assert discord.asked == ["oauth2/@me", "instance", "instance", "oauth2/@me"]
    finally:
        await storage.close()
