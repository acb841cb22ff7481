"""Issue 44: the web table's link says whether it tries again, in a real browser against the fake
Activity server: ``retry`` and ``busy`` are tried again no sooner than their ``retry_after`` and
said on the page, ``auth`` stops, ``not-in-instance`` is tried a few times then stops, the token
exchange is tried again on 429 and 5xx and stops on 400, a channel with no game is said and
waited for; and on a 360×640 phone with Discord's safe-area insets set, nothing the person needs
lies under them."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from testbed.browser import wait_js
from tests.activity import tables
from tests.activity.conftest import SHOTS
from tests.activity.fake_server import FakeActivityServer
from tests.activity.test_table import FAST_TIME, LAYOUT_CHECK, open_table, set_viewport

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:selenium")

Driver = Any

#: Run in the page from its start: every text the notice region showed, in order (the page
#: announces no render; this records each without a timing window to catch it in).
RECORD_NOTICES = """
window.__said = [];
new MutationObserver(() => {
  const notice = document.querySelector('[data-region=notice]');
  const text = notice ? notice.innerText.trim() : '';
  if (text && window.__said[window.__said.length - 1] !== text) window.__said.push(text);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""

NOTICE = "return document.querySelector('[data-region=notice]').innerText.trim()"
#: What the middle of the page says when there is no game in the channel (no table to show).
NO_GAME = "return document.querySelector('.center .nogame')?.innerText.trim() ?? ''"
#: Its first line alone (a button to open a table follows it on a waiting page).
NO_GAME_SAY = "return document.querySelector('.center .nogame .say')?.innerText.trim() ?? ''"
#: The page's clock and timers run 50 times faster (FAST_TIME): a second of the page's is 20 ms.
PAGE_SPEED = 50


@pytest.fixture
def fast(browser: Driver) -> Iterator[Driver]:
    """The browser with the page's time sped up and its notices recorded, from the next page."""
    ids = [
        browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": source})
        for source in (FAST_TIME, RECORD_NOTICES)
    ]
    yield browser
    for script in ids:
        browser.execute_cdp_cmd(
            "Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]}
        )


def open_page(driver: Driver, fake: FakeActivityServer, user: int = tables.ALEX) -> None:
    """Open the page (no wait for a table: the hello may be refused)."""
    fake.views[user] = lambda: tables.nines_play(0)
    set_viewport(driver, 1280, 800)
    driver.get(fake.url(f"mock={user}&guild=444&channel=555&instance=inst-{user}&locale=en"))


def said(driver: Driver) -> list[str]:
    return list(driver.execute_script("return window.__said"))


def seconds_in(lines: list[str], pattern: str) -> list[int]:
    """The seconds each notice matching ``pattern`` (with one ``(\\d+)``) gave."""
    return [int(m.group(1)) for line in lines for m in [re.search(pattern, line)] if m]


def refusal(code: str, retry_after: float | None = None) -> dict[str, Any]:
    frame: dict[str, Any] = {"op": "error", "key": None, "code": code, "message": f"said {code}"}
    if retry_after is not None:
        frame["retry_after"] = retry_after
    return frame


def stopped_saying(driver: Driver, words: str) -> None:
    """Wait until the page said it stopped, with ``words`` (the server's, shown for 6 s of the
    page's time: read from the notices recorded, not from the page now)."""
    wait_js(
        driver,
        "return window.__said.some(t => t.includes('Disconnected.') && t.includes("
        + json.dumps(words)
        + "))",
    )


def table_shown(driver: Driver) -> None:
    """The table came (a hang guard: the waits before it, 3 to 4 s in all at the page's speed
    in the longest test, stretch on a loaded machine)."""
    wait_js(driver, "return document.querySelectorAll('button.card').length === 9", timeout=30)


def no_more_hellos(fake: FakeActivityServer, count: int) -> None:
    """No hello after the ``count`` seen: the page's 60 s (past its longest backoff, 15 s)."""
    time.sleep(60 / PAGE_SPEED)
    assert len(fake.sent("hello")) == count


def test_retry_and_busy_are_tried_again_after_retry_after_and_said(
    fast: Driver, fake: FakeActivityServer
) -> None:
    fake.hello_answers = [refusal("retry", retry_after=120), refusal("busy", retry_after=60)]
    open_page(fast, fake)
    table_shown(fast)
    hellos = fake.sent("hello")
    assert len(hellos) == 3 and len({h.socket for h in hellos}) == 3  # each on its own socket
    lines = said(fast)
    # Each wait is said, with how long: never less than the server's retry_after.
    slow = seconds_in(lines, r"Discord is slow to answer: trying again in (\d+) s\.")
    busy = seconds_in(lines, r"The table's server is busy: trying again in (\d+) s\.")
    assert slow and max(slow) >= 120 and all(s <= 126 for s in slow), lines
    assert busy and max(busy) >= 60 and all(s <= 71 for s in busy), lines
    # Not the server's words too, nor "Disconnected": these refusals are for now.
    assert not any("said " in line or "Disconnected" in line for line in lines), lines
    wait_js(fast, "return !document.querySelector('.notice p')")  # all clear once in


def test_auth_is_final(fast: Driver, fake: FakeActivityServer) -> None:
    fake.hello_answers = [refusal("auth")]
    open_page(fast, fake)
    stopped_saying(fast, "said auth")  # with the server's words
    no_more_hellos(fake, 1)
    assert not any("trying again" in line for line in said(fast))


def test_not_in_instance_is_tried_three_times_then_final(
    fast: Driver, fake: FakeActivityServer
) -> None:
    # Discord's list of the instance's people lagging just after a launch: in on the third.
    fake.hello_answers = [refusal("not-in-instance")] * 2
    open_page(fast, fake)
    table_shown(fast)
    assert len(fake.sent("hello")) == 3
    joined = seconds_in(
        said(fast), r"does not list you in this Activity yet: trying again in (\d+)"
    )
    assert len(joined) >= 2, said(fast)
    # Never in: the first hello and three more, then it stops with the server's words.
    fake.reset()
    fake.hello_answers = [refusal("not-in-instance")] * 5
    open_page(fast, fake)
    stopped_saying(fast, "said not-in-instance")
    no_more_hellos(fake, 4)


def test_the_token_exchange_is_tried_again_on_429_and_5xx_and_final_on_400(
    fast: Driver, fake: FakeActivityServer
) -> None:
    fake.token_answers = [(429, {"Retry-After": "90"}), (503, {})]
    open_page(fast, fake)
    table_shown(fast)
    assert fake.token_asks == 3
    slow = seconds_in(said(fast), r"Discord is slow to answer: trying again in (\d+) s\.")
    assert slow and max(slow) >= 90, said(fast)  # Retry-After: no sooner
    fake.reset()
    fake.token_answers = [(400, {})]
    open_page(fast, fake)
    stopped_saying(fast, "answered 400 for the test")
    time.sleep(60 / PAGE_SPEED)
    assert fake.token_asks == 1 and not fake.sent("hello")


def test_no_game_is_said_and_the_game_comes_on_the_same_socket(
    fast: Driver, fake: FakeActivityServer
) -> None:
    waiting = {"op": "waiting", "code": "no-game", "message": "There is no game in this channel.",
               "daily_offered": False}  # fmt: skip
    fake.hello_answers = [waiting]
    open_page(fast, fake)
    wait_js(fast, NO_GAME + ".includes('No game in this channel yet')")
    assert fast.execute_script(NO_GAME_SAY) == (
        "No game in this channel yet: start one with /nines start."
    )
    assert fast.execute_script(NOTICE) == ""  # no error: news
    # Still waiting later, on the same socket, its heartbeat going (page time: 20 s and more).
    fake.wait_for(lambda: len(fake.sent("ping")) >= 2)
    assert len(fake.sent("hello")) == 1
    fake.seat_waiting()  # someone ran /nines start there
    table_shown(fast)
    assert len(fake.sent("hello")) == 1
    wait_js(fast, "return !document.querySelector('.notice p')")


def test_no_game_from_several_processes_is_asked_again_minutes_later_or_now(
    browser: Driver, fake: FakeActivityServer
) -> None:
    """At the page's real speed (its minutes' wait is never reached here): Look now asks again."""
    from selenium.webdriver.common.by import By

    fake.hello_answers = [refusal("no-game")]
    open_page(browser, fake, tables.BEA)
    wait_js(browser, NO_GAME + ".includes('Looking again in')")
    minutes = seconds_in([browser.execute_script(NO_GAME)], r"Looking again in (\d+) min\.")
    assert minutes and 2 <= minutes[0] <= 5
    assert "No game in this channel yet" in browser.execute_script(NO_GAME)
    assert len(fake.sent("hello")) == 1
    fake.views[tables.BEA] = lambda: tables.nines_play(0)
    browser.find_element(By.CSS_SELECTOR, "[data-ui=look-now]").click()
    table_shown(browser)
    assert len(fake.sent("hello")) == 2


#: Discord's safe-area insets on a phone in portrait: its bar and the notch above, the home bar
#: below, a little at the sides (as Discord's client sets them, on the page's root).
INSETS = {"top": 44, "right": 12, "bottom": 34, "left": 12}

#: Run in the page: whatever the person needs (the bar, the options, the notice, every seat,
#: the status line, every card of the hand) and lies under an inset.
UNDER_INSETS = """
const [top, right, bottom, left] = arguments;
const vw = innerWidth, vh = innerHeight, found = [];
for (const el of document.querySelectorAll(
    '.bar, .menu summary, .notice p, .nogame, .seat, .prompt .say, .prompt .choice, .fan .card,'
    + ' .watch')) {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) continue;
  if (r.top < top - 0.5 || r.left < left - 0.5 || r.right > vw - right + 0.5
      || r.bottom > vh - bottom + 0.5)
    found.push(el.className + ' ' + JSON.stringify([r.left, r.top, r.right, r.bottom]));
}
return found;
"""


def set_insets(driver: Driver) -> None:
    for side, px in INSETS.items():
        driver.execute_script(
            "document.documentElement.style.setProperty(arguments[0], arguments[1])",
            f"--discord-safe-area-inset-{side}",
            f"{px}px",
        )


def test_a_phone_with_discords_insets_has_nothing_needed_under_them(
    browser: Driver, fake: FakeActivityServer
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    sides = [INSETS[s] for s in ("top", "right", "bottom", "left")]
    for name, view in (("nines", lambda: tables.nines_play(0)), ("watcher", None)):
        user = tables.ALEX if view is not None else 555
        open_table(browser, fake, user, view or (lambda: tables.nines_play(None)), size=(360, 640))
        set_insets(browser)  # the boxes read next are laid out with them (a forced layout)
        browser.save_screenshot(str(SHOTS / f"insets-{name}-360x640.png"))
        assert browser.execute_script(UNDER_INSETS, *sides) == [], name
        assert browser.execute_script(LAYOUT_CHECK)["problems"] == [], name
        if view is not None:
            assert browser.execute_script("return document.querySelectorAll('.fan .card').length")
            assert "Your turn" in browser.execute_script(
                "return document.querySelector('.prompt .say').textContent"
            )
    # The no-game notice too.
    fake.hello_answers = [
        {"op": "waiting", "code": "no-game", "message": "none", "daily_offered": False}
    ]
    set_viewport(browser, 360, 640)
    browser.get(fake.url("mock=101&guild=444&channel=555&instance=i&locale=en"))
    wait_js(browser, NO_GAME + ".includes('No game')")
    set_insets(browser)
    assert browser.execute_script(UNDER_INSETS, *sides) == []
    browser.save_screenshot(str(SHOTS / "insets-no-game-360x640.png"))


@pytest.mark.parametrize(("draw", "seconds"), [(0.0, 1), (0.999, 5)])
def test_the_first_reconnect_after_a_server_close_is_spread_over_seconds(
    fast: Driver, fake: FakeActivityServer, draw: float, seconds: int
) -> None:
    """After a restart every open table reconnects: each waits a uniform draw of 0.5 to 5 s (the
    page's random draw fixed here at its two ends), not all in the same instant."""
    script = fast.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument", {"source": f"Math.random = () => {draw};"}
    )
    try:
        open_table(fast, fake, tables.ALEX, lambda: tables.nines_play(0))
        closed = time.monotonic()
        fake.close_sockets()
        fake.wait_for(lambda: len(fake.sent("hello")) == 2)
        # The wait drawn (0.5 + 4.5 x the draw page seconds) is a floor a busy machine can
        # only lengthen; the notice counts down from it, so it never says more than its
        # ceiling (and, drawn late on a starved page, may start lower).
        waited = fake.sent("hello")[1].at - closed
        assert waited >= (0.5 + 4.5 * draw) / PAGE_SPEED, waited
        waits = seconds_in(said(fast), r"Connection lost: reconnecting in (\d+) s")
        assert waits and max(waits) <= seconds, said(fast)
        table_shown(fast)
    finally:
        fast.execute_cdp_cmd(
            "Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]}
        )
