"""The web table drawing a real game: a hand of Nines played from the page, each table the
bot's own (``bot.activity.model.table_for`` of a live ``GameSession``, serialized by
``bot.activity.protocol.table_json``, checked against the contract's schema by the fake
server). Alice taps what the page raises; the other seats play the engine's legal moves; after
each tap the page shows the engine's hand, trick and scores."""

from __future__ import annotations

import json
import random
import threading
from typing import Any

import pytest

from bot.activity.model import table_for
from engine import parse_action
from testbed.browser import wait_js
from tests.activity.fake_server import FakeActivityServer, Json
from tests.activity.test_table import open_table
from tests.test_activity_protocol import ALICE, session

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:selenium")

Driver = Any

#: The page's hand, as an expression.
HAND = "[...document.querySelectorAll('[data-region=hand] button.card')]"


def test_a_hand_of_nines_played_from_the_page(browser: Driver, fake: FakeActivityServer) -> None:
    from selenium.webdriver.common.by import By

    live = session("classic", 0)
    game = live.game
    assert game is not None
    rng = random.Random(7)
    lock = threading.Lock()  # the server's thread plays; the test's reads

    def others() -> None:
        """The other seats play until it is Alice's decision (seat 0) or the hand is over."""
        while game.turn not in (0, None) and game.hand_number == 1:
            seat = game.turn
            game.apply(seat, rng.choice(game.legal_actions(seat)))

    def play(user: int, frame: Json) -> None:
        assert user == ALICE
        with lock:
            assert frame["n"] == table_for(live, 0).n, "the act carries the table's n"
            game.apply(0, parse_action(frame["action"]))
            others()

    def view() -> Any:
        with lock:
            return table_for(live, 0)

    with lock:
        others()
    fake.on_act = play
    open_table(browser, fake, ALICE, view)
    played = 0
    while game.hand_number == 1 and game.turn == 0:
        with lock:
            model = table_for(live, 0)
        assert model.hand is not None
        cards = [str(c) for c in model.hand.cards]
        # The page shows the engine's hand, and raises exactly the cards it may play.
        shown = f"JSON.stringify({HAND}.map(b => b.dataset.card))"
        expected = json.dumps(json.dumps(cards, separators=(",", ":")))
        wait_js(browser, f"return {shown} === {expected}")
        raised = browser.execute_script(
            f"return {HAND}.filter(b => b.classList.contains('playable')).map(b => b.dataset.card)"
        )
        assert raised == [c for c in cards if c in {str(p) for p in model.hand.playable}]
        legal = [str(a) for a in model.hand.legal]
        if "keep" in legal:
            browser.find_element(By.CSS_SELECTOR, "[data-region=prompt] button").click()
        else:
            browser.find_element(By.CSS_SELECTOR, f'[data-card="{raised[0]}"]').click()
        played += 1
        fake.wait_for(lambda n=played: len(fake.answers) == n)
    assert played >= 9  # every card of Alice's hand, and her exchange if she had one
    # The hand is over: the page shows its result, and the score sheet its row.
    with lock:
        model = table_for(live, 0)
    assert model.hand_number == 2 and model.sheet
    wait_js(browser, "return document.querySelector('.result') !== null")
    errors = [e for e in browser.get_log("browser") if e["level"] in {"SEVERE", "WARNING"}]
    assert errors == []
