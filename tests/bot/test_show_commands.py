"""``bench/show_commands.py`` plays its games to the end (issue 38, item 16): a person who takes
a trick and must lead gets no ping (their click's answer gives them the turn), and the script
plays those turns too instead of waiting for a ping that never comes."""

from __future__ import annotations

import itertools
import random

import pytest

from bench.show_commands import play
from bench.show_game import ends
from fakecord import FakeDiscord
from testbed.games import game_id_of
from testbed.people import NotifiedPerson

from .conftest import StartBot


async def test_the_script_plays_the_turns_no_ping_announces(
    fake_discord: FakeDiscord, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    # Games dealt from known seeds (the bot draws them from SystemRandom): the same deals and
    # the same course on every run; one seed a game (a game's message nonces come from it).
    seeds = itertools.count(2029)
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(next(seeds)))
    await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    unnotified = 0
    for ruleset in ("classic", "nein-nine"):  # one after the other, as the script does
        people = await play(fake, alice, bob, ruleset, game_id_of, NotifiedPerson)
        unnotified += sum(p.unnotified for p in people)
        assert all(p.stale == [] for p in people)
    assert ends(fake) == 2
    assert unnotified > 0  # turns taken on a click's answer, which no ping announced
