"""Issue 47: the page and today's daily deal, in a real browser against the fake Activity server:
the daily is offered where the bot offers it; moving to it opens a new socket whose hello says
``daily`` and resends no action pending at the channel's table (it could land in the daily's
game); a refused daily (``no-daily``) goes back to the channel's table with the server's words;
a played daily's result is drawn line by line as the chat words it."""

from __future__ import annotations

from typing import Any

import pytest

from testbed.browser import wait_js
from tests.activity import tables
from tests.activity.fake_server import FakeActivityServer
from tests.activity.test_table import open_table

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:selenium")

Driver = Any

BAR = "document.querySelector('[data-region=bar]').innerText"
RESULT = "(document.querySelector('.dailyresult')?.innerText ?? '')"


def tap(driver: Driver, ui: str) -> None:
    """A button of the page by its ``data-ui`` (the menu's are in a closed ``details``)."""
    driver.execute_script(f"document.querySelector('[data-ui=\"{ui}\"]').click()")


def hellos(fake: FakeActivityServer) -> list[Any]:
    return [r.frame.get("daily") for r in fake.sent("hello")]


def test_moving_to_the_daily_resends_nothing_and_no_daily_goes_back(
    browser: Driver, fake: FakeActivityServer
) -> None:
    fake.daily_offered = True
    fake.answer_acts = False  # the tap stays pending
    open_table(browser, fake, tables.ALEX, lambda: tables.nines_play(0))
    wait_js(browser, "return !!document.querySelector('[data-ui=\"daily-nines\"]')")
    browser.execute_script("document.querySelector('.card.playable').click()")
    fake.wait_for(lambda: fake.sent("act"))
    tap(browser, "daily-nines")
    fake.wait_for(lambda: hellos(fake) == [None, "nines"])
    wait_js(
        browser,
        f"return {BAR}.includes('Daily Nines') && {BAR}.includes('Only you see this table')",
    )
    # The act pending at the channel's table was not sent again on the daily's socket.
    sockets = {r.socket for r in fake.sent("act")}
    assert sockets == {fake.sent("hello")[0].socket}
    # Back at the channel's table: a new hello, no daily.
    tap(browser, "daily-leave")
    fake.wait_for(lambda: hellos(fake) == [None, "nines", None])
    wait_js(browser, f"return !{BAR}.includes('Daily')")
    # The daily refused: back at the channel's table at once, the server's words said.
    words = "This bot does not offer the daily deal: its operator has not set DAILY_SECRET."
    fake.daily_answer = {"op": "error", "key": None, "code": "no-daily", "message": words}
    tap(browser, "daily-nines")
    fake.wait_for(lambda: hellos(fake) == [None, "nines", None, "nines", None])
    wait_js(
        browser,
        f"return document.querySelector('[data-region=notice]').innerText.includes({words!r})",
    )
    wait_js(browser, "return document.querySelectorAll('button.card').length === 9")


def test_a_played_dailys_result_is_drawn_as_the_chat_words_it(
    browser: Driver, fake: FakeActivityServer
) -> None:
    fake.daily_offered = True
    hands = [{"number": 1, "points": 2, "share": 0.5}, {"number": 2, "points": -1, "share": None}]
    choice = {"hand": 1, "decision": 2, "mine": "9H", "common": "JK:win", "chose": 2, "field": 3}
    fake.daily_answer = {
        "op": "daily-result", "game": "nein-nine", "day": "2026-12-03", "share": 0.5, "field": 2,
        "hands": hands, "choices": [choice],
    }  # fmt: skip
    open_table(browser, fake, tables.ALEX, lambda: tables.nines_play(0))
    wait_js(browser, "return !!document.querySelector('[data-ui=\"daily-nein-nine\"]')")
    tap(browser, "daily-nein-nine")
    wait_js(browser, f"return {RESULT}.length > 0")
    lines = [
        line for line in browser.execute_script(f"return {RESULT}").split("\n") if line.strip()
    ]
    assert lines[:5] == [
        "Daily Nein Nine of 2026\u201112\u201103",
        "You beat 50% of the 2 other players who held this hand.",
        "Hand 1: +2 · beat 50%",
        "Hand 2: \u22121 · beat —",
        "How the others played your hand:",
    ], lines
    assert lines[5] == "Hand 1, decision 2: you, 9 of hearts; 67% of those who held it, Joker wins"
    assert lines[6] == "Only you see this result. The deal opens to everyone at 00:00 UTC."
    # Nothing of a table under it: the page sits at no table, the way back offered.
    assert browser.execute_script("return document.querySelectorAll('button.card').length") == 0
    assert "Back to the channel's table" in browser.execute_script(f"return {RESULT}")
