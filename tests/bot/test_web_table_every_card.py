"""Issue 46, item 13: every card played stands on the web table, as it does in chat
(PRODUCT 6), end to end: a whole game of each game, one person playing from chat and one from
a web table's socket (testbed/web_tables.py), computers in the other seats. Every card of the
game's record must be in some table frame the web table was sent, beside its player's seat:
a hand's last cards too, which come with the next deal in one step (``last_tricks``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import Rules
from testbed.games import open_game, play_one
from testbed.web_tables import WebTable

from .test_activity import Activity, activity  # noqa: F401 (the fixture)

Json = dict[str, Any]


def cards_shown(tables: list[Json]) -> set[tuple[int, str]]:
    """(seat, card) of every card that stood on one of these tables: the trick in play, the
    hand's completed tricks, the ended hand's."""
    shown: set[tuple[int, str]] = set()
    for table in tables:
        tricks = [*table["tricks"], *table["last_tricks"]]
        if table["trick"] is not None:
            tricks.append(table["trick"])
        for trick in tricks:
            shown.update((p["seat"], p["card"]) for p in trick["cards"])
    return shown


@pytest.mark.slow(25)
@pytest.mark.parametrize(
    ("ruleset", "options"), [("classic", {"start": 6}), ("nein-nine", {"rounds": 2})]
)
async def test_every_card_played_reaches_the_web_table(
    activity: Activity,  # noqa: F811
    ruleset: str,
    options: dict[str, Any],
) -> None:
    fake, bot = activity.fake, activity.bot
    assert bot is not None
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    computers = Rules.from_settings(ruleset).players - 2
    game = await open_game(
        fake, alice, people=(bob,), computers=("normal",) * computers, ruleset=ruleset, **options
    )
    session = bot.sessions.get(game)
    assert session is not None
    web = WebTable(fake, bob, fake.guild, fake.channel, lambda: [activity.port], random.Random(3))
    rng = random.Random(11)
    try:
        for _ in range(20000):
            table = await web.latest()
            assert table is not None, "the web table lost its socket"
            if table["status"] != "playing":
                break
            turn = table["turn"]
            if turn is not None and turn["seat"] == table["viewer"] and table["hand"]["legal"]:
                act = await web.act(game, table)
                # Refused only if the game moved first (a slow machine: bob's turn timed out
                # and was played for him): the next table says what is due now.
                assert act.acked or act.answers[-1] in ("error:stale", "error:not-your-turn"), (
                    act.answers
                )
            elif turn is not None and turn["seat"] == 0:
                assert await play_one(fake, [alice], fake.channel, rng) is not None
            # else computers at play: ``latest`` reads what comes meanwhile
        else:
            raise AssertionError("the game did not end")
        record = session.game
        assert record is not None and record.over, web.state()
        played = {
            ((trick.leader + k) % len(session.seats), str(card))
            for hand in record.hands_log
            for trick in hand.tricks
            for k, card in enumerate(trick.cards)
        }
        missing = played - cards_shown(web.tables)
        assert len(record.hands_log) > 1, "one hand only: no hand ended before another"
        assert not missing, f"{len(missing)} of {len(played)} cards never reached the web table"
    finally:
        await web.close()
