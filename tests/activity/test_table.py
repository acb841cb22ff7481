"""The web table in a real browser (headless Chromium) against the fake Activity server:
what it shows of a Nines and a Nein Nine position, what a tap, a key press and a reconnect
send, and that it fits a phone and a desktop with nothing overlapping or overflowing."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.table import DuplicateRow, DuplicateSheet, PlayedCard, TableModel, TrickModel
from engine import Card
from testbed.browser import wait_js
from tests.activity import tables
from tests.activity.conftest import SHOTS
from tests.activity.fake_server import FakeActivityServer

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:selenium")

Driver = Any  # selenium's WebDriver, imported lazily (the browser fixture skips without it)


def set_viewport(driver: Driver, width: int, height: int) -> None:
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 800},
    )


def open_table(
    driver: Driver,
    fake: FakeActivityServer,
    user: int,
    view: Callable[[], TableModel],
    *,
    locale: str = "en",
    size: tuple[int, int] = (1280, 800),
    prefix: str = "/",
) -> None:
    fake.views[user] = view
    set_viewport(driver, *size)
    query = f"mock={user}&guild=444&channel=555&instance=inst-{user}&locale={locale}"
    driver.get(fake.url(query, prefix))
    wait_js(driver, "return document.querySelector('[data-region=center]').childElementCount > 0")


def card(driver: Driver, code: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, f'[data-card="{code}"]')


def acts(fake: FakeActivityServer) -> list[dict[str, Any]]:
    return [r.frame for r in fake.sent("act")]


# What the table shows -------------------------------------------------------------------


def test_nines_position_renders_in_english(browser: Driver, fake: FakeActivityServer) -> None:
    from selenium.webdriver.common.by import By

    open_table(browser, fake, tables.ALEX, lambda: tables.nines_play(0))
    hello = fake.wait_for(lambda: fake.sent("hello"))[0].frame
    assert hello == {
        "op": "hello",
        "access_token": "tok-101",
        "instance_id": "inst-101",
        "channel_id": "555",
        "guild_id": "444",
        "last_seq": None,
        "locale": "en",
    }
    seats = browser.find_elements(By.CSS_SELECTOR, "[data-region=seats] .seat")
    assert [s.get_attribute("aria-label") for s in seats] == [
        "Béatrice Tremblay-Gagnon",
        "Computer (hard)",
    ]
    # Béatrice sits left of Alex (seat 1 plays after seat 0), the computer right.
    assert "pos-left" in seats[0].get_attribute("class")
    assert "pos-right" in seats[1].get_attribute("class")
    assert "1 trick" in seats[0].text and "needs 3" in seats[0].text
    assert "swapped" in seats[0].text and "kept their hand" in seats[1].text  # N4: public
    me = browser.find_element(By.CSS_SELECTOR, "[data-region=me] .seat")
    assert "turn" in me.get_attribute("class") and "needs 2" in me.text and "2 tricks" in me.text
    assert wait_js(
        browser, "return document.querySelector('.seat.turn .secs').textContent"
    ).endswith("s")
    trump = browser.find_element(By.CSS_SELECTOR, ".trump")
    assert trump.get_attribute("aria-label") == "Trump: hearts"
    assert "Hand 3" in browser.find_element(By.CSS_SELECTOR, ".bar").text
    played = browser.find_elements(By.CSS_SELECTOR, ".trick .played")
    assert [p.get_attribute("aria-label") for p in played] == [
        "Computer (hard): 6 of spades",
        "Béatrice Tremblay-Gagnon: 7 of spades",
    ]
    last = browser.find_element(By.CSS_SELECTOR, ".lasttrick")
    assert "Last trick" in last.text and "Last trick, won by Computer (hard)" in last.text
    chips = [m.accessible_name for m in last.find_elements(By.CSS_SELECTOR, ".mini")]
    assert chips == [
        "Alex: jack of spades",
        "Béatrice Tremblay-Gagnon: 5 of spades",
        "Computer (hard): king of spades",
    ]
    hand = browser.find_elements(By.CSS_SELECTOR, "[data-region=hand] button.card")
    assert [b.accessible_name for b in hand] == [
        "ace of spades", "10 of spades", "3 of spades", "queen of hearts", "7 of hearts",
        "9 of clubs", "2 of clubs", "king of diamonds", "5 of diamonds",
    ]  # fmt: skip
    raised = [b.get_attribute("data-card") for b in hand if "playable" in b.get_attribute("class")]
    assert raised == ["AS", "TS", "3S"]
    assert all("dimmed" in b.get_attribute("class") for b in hand[3:])
    # The score sheet: both hands so far, with the start row (no total column: issue 46).
    browser.find_element(By.CSS_SELECTOR, "[data-ui=sheet]").click()
    sheet = browser.find_element(By.CSS_SELECTOR, ".sheet")
    rows = [r.text.split() for r in sheet.find_elements(By.CSS_SELECTOR, "tr")]
    assert rows[0] == ["#", "Tr", "Dl", "Ale", "Béa", "Com"]
    assert rows[2] == ["1", "Ale", "8", "9", "9"]
    browser.find_element(By.CSS_SELECTOR, "[data-ui=sheet-close]").click()
    assert not browser.find_elements(By.CSS_SELECTOR, ".sheet")
    # Nothing went wrong in the page, the server's strict Content Security Policy included.
    errors = [e for e in browser.get_log("browser") if e["level"] in {"SEVERE", "WARNING"}]
    assert errors == []


@pytest.mark.parametrize(
    ("locale", "size", "total", "legend"),
    [
        ("en", (1280, 800), "total", "total: the whole match so far."),
        ("fr-CA", (360, 640), "total", "total\u00a0: toute la partie tournante jusqu'ici."),
    ],
)
def test_a_duplicate_games_sheet_shows_the_running_result(
    browser: Driver,
    fake: FakeActivityServer,
    locale: str,
    size: tuple[int, int],
    total: str,
    legend: str,
) -> None:
    """Issue 47: under the raw scores, each hand's share of the others on the same cards in
    the same seat that the player beat ("-" while nobody else held them), and the match so
    far, in the chat's words; on a phone too, within the screen."""
    from selenium.webdriver.common.by import By

    match = DuplicateSheet(
        game=2,
        games=3,
        rows=(
            DuplicateRow(1, (1.0, 0.5, 0.0), (1, 1, 1)),
            DuplicateRow(2, (0.0, 0.0, 0.0), (0, 0, 0)),
        ),
        matchpoints=(2.0, 1.0, 0.0),
        tops=(2, 2, 2),
    )
    view = lambda: dataclasses.replace(tables.nines_play(0), duplicate=match)  # noqa: E731
    open_table(browser, fake, tables.ALEX, view, locale=locale, size=size)
    browser.find_element(By.CSS_SELECTOR, "[data-ui=sheet]").click()
    box = browser.find_element(By.CSS_SELECTOR, ".sheet .dup")
    rows = [
        [c.get_attribute("textContent") for c in r.find_elements(By.CSS_SELECTOR, "th, td")]
        for r in box.find_elements(By.CSS_SELECTOR, "tr")
    ]
    pc = "%" if locale == "en" else "\u00a0%"
    assert rows == [
        ["#", "Ale", "Béa", "Com"],
        ["1", f"100{pc}", f"50{pc}", f"0{pc}"],
        ["2", "-", "-", "-"],
        [total, f"100{pc}", f"50{pc}", f"0{pc}"],
    ]
    assert legend in box.get_attribute("textContent")
    title = box.find_element(By.CSS_SELECTOR, "h3").get_attribute("textContent")
    assert title == (
        "Duplicate, hand by hand (game 2 of 3)"
        if locale == "en"
        else "Comparaison manche par manche (partie 2 de 3)"
    )
    # Within the screen: the sheet's box scrolls, the page does not.
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width <= size[0]


def test_nein_nine_position_renders_in_french(browser: Driver, fake: FakeActivityServer) -> None:
    from selenium.webdriver.common.by import By

    open_table(browser, fake, tables.BEA, lambda: tables.nein_nine_play(1), locale="fr-CA")
    assert browser.execute_script("return document.documentElement.lang") == "fr"
    bar = browser.find_element(By.CSS_SELECTOR, ".bar").text
    assert "Nein Nine" in bar and "Manche 2" in bar and "Brasseur Alex" in bar
    trump = browser.find_element(By.CSS_SELECTOR, ".trump")
    assert trump.get_attribute("aria-label") == "Atout\u00a0: carreau"
    spits = [s.accessible_name for s in trump.find_elements(By.CSS_SELECTOR, ".mini")]
    assert spits == ["7 de carreau", "7 de cœur"]
    assert "Grand 7" in trump.text and "Petit 7" in trump.text
    seats = browser.find_elements(By.CSS_SELECTOR, "[data-region=seats] .seat")
    # Béa (seat 1) at the bottom: Cam (seat 2) to her left, Alex (seat 0) to her right.
    assert [s.get_attribute("aria-label") for s in seats] == ["Alex", "Cam"]
    assert "pos-right" in seats[0].get_attribute("class")
    assert "pos-left" in seats[1].get_attribute("class")
    # G11: trick counts, cards left and the signed score with its stones; no quota.
    assert "1 pli" in seats[0].text and "+2" in seats[0].text and "○○" in seats[0].text
    assert not browser.find_elements(By.CSS_SELECTOR, ".quota")
    me = browser.find_element(By.CSS_SELECTOR, "[data-region=me]").text
    assert "\u22121" in me and "●" in me and "0 pli" in me
    hand = browser.find_elements(By.CSS_SELECTOR, "[data-region=hand] button.card")
    assert [b.accessible_name for b in hand] == [
        "Joker", "10 de trèfle", "9 de trèfle", "8 de pique", "7 de pique",
    ]  # fmt: skip
    raised = [b.get_attribute("data-card") for b in hand if "playable" in b.get_attribute("class")]
    assert raised == ["JK", "TC", "9C"]
    played = browser.find_element(By.CSS_SELECTOR, ".trick .played")
    assert played.get_attribute("aria-label") == "Cam\u00a0: valet de trèfle"
    # The French letters on the card faces: V for the jack.
    assert "V" in played.find_element(By.CSS_SELECTOR, "text.idx").get_attribute("textContent")
    # The Joker asks for its call; the call is what is sent.
    card(browser, "JK").click()
    choices = browser.find_elements(By.CSS_SELECTOR, ".prompt .choice")
    assert [c.text for c in choices] == ["Gagne le pli", "Perd le pli", "Annuler"]
    assert "armed" in card(browser, "JK").get_attribute("class")  # the card asked about
    prompt = browser.find_element(By.CSS_SELECTOR, ".prompt .say").get_attribute("textContent")
    assert prompt == "Votre Joker\u00a0: gagne\u2011t\u2011il ce pli ou le perd\u2011il\u202f?"
    assert not acts(fake)
    choices[1].click()
    sent = fake.wait_for(lambda: acts(fake))
    assert sent[0]["action"] == "JK:lose" and len(sent[0]["key"]) >= 16


def test_card_letters_follow_the_games_notation(browser: Driver, fake: FakeActivityServer) -> None:
    """A card reads the same in chat and here: in a game whose notation is English, a French
    speaker's jack carries a J (its name stays French)."""
    from selenium.webdriver.common.by import By

    fake.table_extra = {"notation": "en"}
    open_table(browser, fake, tables.BEA, lambda: tables.nein_nine_play(1), locale="fr")
    played = browser.find_element(By.CSS_SELECTOR, ".trick .played")
    assert played.get_attribute("aria-label") == "Cam\u00a0: valet de trèfle"
    assert played.find_element(By.CSS_SELECTOR, "text.idx").get_attribute("textContent") == "J"


def test_a_watcher_sees_no_hand(browser: Driver, fake: FakeActivityServer) -> None:
    from selenium.webdriver.common.by import By

    open_table(browser, fake, 555, lambda: tables.nines_play(None))
    assert not browser.find_elements(By.CSS_SELECTOR, "button.card")
    assert "You are watching" in browser.find_element(By.CSS_SELECTOR, "[data-region=hand]").text
    # Every seat is shown around the table, the first seat at the bottom, none of them "you".
    names = [s.get_attribute("aria-label") for s in browser.find_elements(By.CSS_SELECTOR, ".seat")]
    assert sorted(names) == ["Alex", "Béatrice Tremblay-Gagnon", "Computer (hard)"]
    bottom = browser.find_element(By.CSS_SELECTOR, "[data-region=me] .seat")
    assert bottom.get_attribute("aria-label") == "Alex"
    assert "you" not in bottom.get_attribute("textContent").split()


def test_the_exchange_is_two_clear_choices(browser: Driver, fake: FakeActivityServer) -> None:
    from selenium.webdriver.common.by import By

    open_table(browser, fake, tables.ALEX, lambda: tables.nines_exchange(0))
    prompt = browser.find_element(By.CSS_SELECTOR, "[data-region=prompt]")
    assert "keep your hand or swap it" in prompt.text
    buttons = prompt.find_elements(By.CSS_SELECTOR, "button")
    assert [b.text for b in buttons] == ["Keep my hand", "Swap"]
    # The previous hand's result stands in the middle until the first card.
    result = browser.find_element(By.CSS_SELECTOR, ".result")
    assert "Hand 3 is over" in result.text and "The spare" in result.text
    assert len(browser.find_elements(By.CSS_SELECTOR, "button.card.playable")) == 0
    buttons[1].click()
    assert fake.wait_for(lambda: acts(fake))[0]["action"] == "swap"


def ended_hand(viewer: int) -> TableModel:
    """The exchange of hand 4, hand 3 just ended: its last two tricks carried (``last_tricks``),
    one score gone below 0 (an instant win)."""
    model = tables.nines_exchange(viewer)
    result = model.last_result
    assert result is not None
    scores = (6, -1, 8)
    sheet = (*model.sheet[:-1], dataclasses.replace(model.sheet[-1], scores=scores))
    ended = (
        TrickModel(
            12,
            tuple(PlayedCard(s, Card.parse(c)) for s, c in ((0, "2S"), (1, "AS"), (2, "9S"))),
            1,
            Card.parse("AS"),
        ),
        TrickModel(
            13,
            tuple(PlayedCard(s, Card.parse(c)) for s, c in ((1, "3D"), (2, "KD"), (0, "QD"))),
            2,
            Card.parse("KD"),
        ),
    )
    return dataclasses.replace(
        model,
        scores=scores,
        sheet=sheet,
        last_result=dataclasses.replace(result, scores=scores),
        last_tricks=ended,
    )


def test_a_hand_summary_reads_as_chats(browser: Driver, fake: FakeActivityServer) -> None:
    """Issue 46, items 13 and 19: the hand that ended with its last trick (its cards came with
    the next deal) and every trick a tap away; tricks against the quota and the change to each
    score; a negative score with a minus sign (−1), as chat writes them."""
    from selenium.webdriver.common.by import By

    model = ended_hand(0)
    open_table(browser, fake, tables.ALEX, lambda: model)
    result = browser.find_element(By.CSS_SELECTOR, ".result")
    last = result.find_element(By.CSS_SELECTOR, ".lasttrick")
    assert last.text.startswith("Last trick, won by Computer (hard)"), last.text
    labels = [m.get_attribute("aria-label") for m in last.find_elements(By.CSS_SELECTOR, ".mini")]
    assert labels == [
        "Béatrice Tremblay-Gagnon: 3 of diamonds",
        "Computer (hard): king of diamonds",
        "Alex: queen of diamonds",
    ]
    assert result.find_element(By.CSS_SELECTOR, "details.alltricks summary").text
    heads = [th.text for th in result.find_elements(By.CSS_SELECTOR, "tr:first-child th")]
    assert heads == ["", "tricks", "Change", "Score"]
    before = model.sheet[-2].scores
    assert model.last_result is not None
    for row, seat in zip(
        result.find_elements(By.CSS_SELECTOR, "tr + tr"), model.seats, strict=True
    ):
        cells = [td.text for td in row.find_elements(By.CSS_SELECTOR, "td")]
        change = model.last_result.scores[seat.seat] - before[seat.seat]
        sign = "+" if change > 0 else "\u2212" if change < 0 else ""
        assert cells[0] == f"{model.last_result.tricks_won[seat.seat]}/{model.rules.quota}"
        assert cells[1] == f"{sign}{abs(change)}"
        assert cells[2] == str(model.last_result.scores[seat.seat]).replace("-", "\u2212")
    assert "\u22121" in result.text and "-1" not in result.text
    # Closed, the hand's last trick still stands on the table until the next card.
    result.find_element(By.CSS_SELECTOR, "[data-ui=close-result]").click()
    wait_js(browser, "return !document.querySelector('.result')")
    played = browser.find_elements(By.CSS_SELECTOR, ".trick.done .played")
    assert [p.get_attribute("data-card") for p in played] == ["3D", "KD", "QD"]
    assert (
        "Trick 13, won by Computer (hard)" in browser.find_element(By.CSS_SELECTOR, ".caption").text
    )


#: Run in the page: for each pip card of the hand, how close its pips come to its corner
#: indices (the rank and suit in two corners), in px as drawn; negative: they overlap.
PIP_GAPS = """
const gaps = {};
for (const svg of document.querySelectorAll('.fan .card svg.face')) {
  const card = svg.closest('[data-card]').dataset.card;
  if (!/^([2-9]|T|10)[HDCS]$/.test(card)) continue;
  const g = svg.querySelector('g.red, g.black');
  const corners = [...g.children].filter((e) => e.tagName === 'g' || e.matches('text.idx') ||
    (e.tagName === 'use' && e.previousElementSibling?.matches('text.idx')));
  const marks = [...corners].flatMap((e) => e.tagName === 'g' ? [...e.children] : [e])
    .map((e) => e.getBoundingClientRect());
  const pips = [...g.children].filter((e) => e.tagName === 'use' && !corners.includes(e))
    .map((e) => e.getBoundingClientRect());
  let least = Infinity;
  for (const p of pips) for (const m of marks) {
    const dx = Math.max(m.left - p.right, p.left - m.right);
    const dy = Math.max(m.top - p.bottom, p.top - m.bottom);
    least = Math.min(least, Math.max(dx, dy));
  }
  gaps[card] = [least, pips.length, svg.getBoundingClientRect().width];
}
return gaps;
"""


def test_pips_stand_clear_of_the_corner_indices(browser: Driver, fake: FakeActivityServer) -> None:
    """Issue 46, item 18: on every pip card the pips keep clear of the corner indices (the 10
    and the 7 had them pressed against them)."""
    open_table(browser, fake, tables.ALEX, lambda: tables.nines_exchange(0))
    gaps = browser.execute_script(PIP_GAPS)
    assert {"TD", "9S", "4S", "3H", "8C", "5C"} <= set(gaps), gaps
    for card, (gap, pips, width) in gaps.items():
        rank = 10 if card[0] == "T" else int(card[0])
        assert pips == rank, (card, pips)
        # At least 1 unit of the card's 60-unit width between a pip and an index.
        assert gap >= width / 60, (card, gap, width)


def test_french_words_never_break_at_a_hyphen() -> None:
    """Issue 46, item 20: « échangez‑la », « perd‑il » hold together (a no-break hyphen,
    U+2011): no French word of the page's carries a breakable hyphen between letters."""
    source = (Path(__file__).resolve().parents[2] / "web" / "src" / "i18n.ts").read_text()
    french = source[source.index("const fr: Words = {") :]
    french = french[: french.index("\n};")]
    words = [line for line in french.splitlines() if "game:" not in line]  # the games' names
    hyphenated = [line.strip() for line in words if re.search(r"[^\W\d_]-[^\W\d_]", line)]
    assert hyphenated == []
    # The words shared with the chat come from its catalogue, hyphens and all: the page keeps
    # them whole (``whole``), as the French position's rendering shows in the browser.
    assert 'whole(f["hand.your_exchange"])' in french and 'whole(f["hand.joker_call"])' in french


def lobby(viewer: int | None, people: int) -> TableModel:
    """Nines' lobby: Alex hosts, ``people`` seats taken of three."""
    model = tables.nines_play(viewer)
    seats = tuple(
        dataclasses.replace(s, host=s.seat == 0, computer=False) for s in model.seats[:people]
    )
    return dataclasses.replace(
        model, status="lobby", seats=seats, hand=None, trick=None, tricks=(), turn=None,
        hand_number=0, last_result=None,
    )  # fmt: skip


def test_the_lobby_says_how_to_sit_down_and_sends_it(
    browser: Driver, fake: FakeActivityServer
) -> None:
    """Issue 46, item 15: a person not seated is told how many seats are taken and may join;
    the host adds a computer or starts; each tap is a ``lobby`` frame."""
    from selenium.webdriver.common.by import By

    def lobby_frames() -> list[dict[str, Any]]:
        return [r.frame for r in fake.sent("lobby")]

    open_table(browser, fake, tables.CAM, lambda: lobby(None, 2))
    prompt = browser.find_element(By.CSS_SELECTOR, "[data-region=prompt]")
    assert "2 of 3 seats taken" in prompt.text and "Join to play" in prompt.text
    assert [b.text for b in prompt.find_elements(By.CSS_SELECTOR, "button")] == ["Join"]
    prompt.find_element(By.CSS_SELECTOR, "button").click()
    sent = fake.wait_for(lambda: lobby_frames())
    assert sent[0]["what"] == "join" and len(sent[0]["key"]) >= 16
    # The host, with a seat free: a computer; full: start (and take a computer back).
    open_table(browser, fake, tables.ALEX, lambda: lobby(0, 2))
    buttons = browser.find_elements(By.CSS_SELECTOR, "[data-region=prompt] button")
    assert [b.text for b in buttons] == ["Add a computer"]
    buttons[0].click()
    assert fake.wait_for(lambda: len(lobby_frames()) == 2 and lobby_frames())[1]["what"] == "cpu"
    open_table(browser, fake, tables.ALEX, lambda: lobby(0, 3))
    buttons = browser.find_elements(By.CSS_SELECTOR, "[data-region=prompt] button")
    assert [b.text for b in buttons] == ["Start"]
    buttons[0].click()
    assert fake.wait_for(lambda: len(lobby_frames()) == 3 and lobby_frames())[2]["what"] == "start"


def test_the_end_shows_the_ranking(browser: Driver, fake: FakeActivityServer) -> None:
    from selenium.webdriver.common.by import By

    open_table(browser, fake, tables.ALEX, tables.nines_over)
    end = browser.find_element(By.CSS_SELECTOR, ".end")
    assert "Game over" in end.text and "Computer (hard) won" in end.text
    # The last hand's last trick stands; every trick of it is one tap away.
    last = end.find_element(By.CSS_SELECTOR, ".lasttrick").text
    assert "Last trick, won by Computer (hard)" in last
    tricks = end.find_element(By.CSS_SELECTOR, "details.alltricks")
    assert tricks.text == "Every trick of the hand"
    tricks.find_element(By.CSS_SELECTOR, "summary").click()
    assert len(tricks.find_elements(By.CSS_SELECTOR, "li")) == 4
    assert "Trick 2" in tricks.text and "Alex: queen of clubs" in [
        m.accessible_name for m in tricks.find_elements(By.CSS_SELECTOR, ".mini")
    ]
    ranks = [li.text.split("\n") for li in end.find_elements(By.CSS_SELECTOR, ".ranking li")]
    assert ranks == [
        ["1st", "Computer (hard)", "0"],
        ["2nd", "Alex", "2"],
        ["3rd", "Béatrice Tremblay-Gagnon", "4"],
    ]


# What a tap and a key press send ------------------------------------------------------------


def test_a_tap_plays_a_raised_card_and_a_dimmed_card_does_nothing(
    browser: Driver, fake: FakeActivityServer
) -> None:
    open_table(browser, fake, tables.ALEX, lambda: tables.nines_play(0))
    fake.answer_acts = False  # the card stays in the hand: a second tap must send nothing
    card(browser, "QH").click()
    card(browser, "9C").click()
    card(browser, "TS").click()
    sent = fake.wait_for(lambda: acts(fake))
    # The page sends in the order of the taps, on one socket: had a dimmed card sent
    # anything, it would have come first.
    assert sent[0]["action"] == "TS" and len(sent[0]["key"]) >= 16
    # While it is on its way, the card is no longer playable: no double play.
    assert "playable" not in card(browser, "TS").get_attribute("class")
    card(browser, "TS").click()
    card(browser, "AS").click()
    keys = [a["key"] for a in fake.wait_for(lambda: len(acts(fake)) == 2 and acts(fake))]
    assert [a["action"] for a in acts(fake)] == ["TS", "AS"]
    assert keys[0] != keys[1]


def test_keyboard_play_with_tab_and_enter(browser: Driver, fake: FakeActivityServer) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    open_table(browser, fake, tables.ALEX, lambda: tables.nines_play(0))
    focused = "return document.activeElement && document.activeElement.dataset.card || null"
    for _ in range(20):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        if browser.execute_script(focused):
            break
    assert browser.execute_script(focused) == "AS"  # the hand is reached by Tab
    ActionChains(browser).send_keys(Keys.TAB).perform()
    assert browser.execute_script(focused) == "TS"
    for _ in range(2):
        ActionChains(browser).send_keys(Keys.TAB).perform()
    assert browser.execute_script(focused) == "QH"
    ActionChains(browser).send_keys(Keys.ENTER).perform()  # dimmed: nothing
    ActionChains(browser).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    assert browser.execute_script(focused) == "3S"
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    # The first act is the 3's: the dimmed queen, pressed before, sent nothing.
    assert fake.wait_for(lambda: acts(fake))[0]["action"] == "3S"
    # The table that follows keeps the keyboard in the hand.
    wait_js(browser, "return document.activeElement && !!document.activeElement.dataset.card")


def test_confirm_option_asks_for_a_second_tap_and_is_remembered(
    browser: Driver, fake: FakeActivityServer
) -> None:
    from selenium.webdriver.common.by import By

    open_table(browser, fake, tables.ALEX, lambda: tables.nines_play(0))
    try:
        browser.find_element(By.CSS_SELECTOR, ".menu summary").click()
        browser.find_element(By.CSS_SELECTOR, "[data-ui=confirm]").click()
        assert browser.execute_script("return localStorage.getItem('nines.confirm')") == "1"
        open_table(browser, fake, tables.ALEX, lambda: tables.nines_play(0))
        assert browser.find_element(By.CSS_SELECTOR, "[data-ui=confirm]").get_attribute("checked")
        card(browser, "AS").click()
        # The tap was handled (the card armed), and it sent nothing.
        wait_js(browser, "return document.querySelector('[data-card=AS]').matches('.armed')")
        assert acts(fake) == []
        assert "armed" in card(browser, "AS").get_attribute("class")
        assert "Tap ace of spades again" in browser.find_element(By.CSS_SELECTOR, ".prompt").text
        card(browser, "AS").click()
        assert fake.wait_for(lambda: acts(fake))[0]["action"] == "AS"
    finally:
        browser.execute_script("localStorage.clear()")


# Dropped sockets ---------------------------------------------------------------------------


def test_a_card_acked_stays_played_until_its_table_comes(
    browser: Driver, fake: FakeActivityServer
) -> None:
    """Issue 46, item 13 (14 in its list): between the server's ack and the next table the
    tapped card is neither raised nor tappable again; the table that follows settles it."""
    open_table(browser, fake, tables.ALEX, lambda: tables.nines_play(0))
    fake.ack_only = True
    card(browser, "TS").click()
    key = fake.wait_for(lambda: acts(fake))[0]["key"]
    fake.wait_for(lambda: key in fake.answers)
    wait_js(browser, "return !!document.querySelector('[data-card=TS].sent')")
    classes = card(browser, "TS").get_attribute("class")
    assert "playable" not in classes and "sent" in classes, classes
    card(browser, "TS").click()
    # Another card, still playable, goes at once (the held one is not a lock on the hand). The
    # page sends in order, so the second tap on the held card sent nothing if the next act
    # the server reads is this one (no fixed wait for an absence).
    card(browser, "AS").click()
    assert [a["action"] for a in fake.wait_for(lambda: len(acts(fake)) >= 2 and acts(fake))] == [
        "TS",
        "AS",
    ]


def test_a_reconnect_resumes_and_resends_the_unanswered_action(
    browser: Driver, fake: FakeActivityServer
) -> None:
    open_table(browser, fake, tables.ALEX, lambda: tables.nines_play(0))
    fake.wait_for(lambda: fake.sent("hello"))
    ready_seq = fake.seq
    fake.drop_next_act = True  # the server closes the socket on the act, without an answer
    card(browser, "AS").click()
    # The client comes back on a new socket, says where it was, and sends the act again.
    hellos = fake.wait_for(lambda: len(fake.sent("hello")) == 2 and fake.sent("hello"))
    assert hellos[0].frame["last_seq"] is None
    assert hellos[1].frame["last_seq"] == ready_seq
    sent = fake.wait_for(lambda: len(acts(fake)) == 2 and fake.sent("act"))
    assert sent[0].socket != sent[1].socket
    assert sent[0].frame == sent[1].frame  # the same action under the same key
    # Answered now: nothing more is resent after another drop.
    wait_js(browser, "return !document.querySelector('.notice p')")
    assert fake.answers[sent[0].frame["key"]] == {"op": "ack", "key": sent[0].frame["key"]}


def test_an_action_carries_the_table_it_was_made_on_even_resent_after_a_drop(
    browser: Driver, fake: FakeActivityServer
) -> None:
    """Issue 44, item 5: a tap carries the move count of the table it was made on; resent
    after a reconnect, it carries that count still, not the newer table's the reconnect
    brought (so the server refuses it as out of date if the game moved on)."""
    open_table(browser, fake, tables.ALEX, lambda: tables.nines_play(0))
    ready = fake.wait_for(lambda: fake.sent("hello"))
    made_on = tables.nines_play(0).n
    assert ready and made_on == 30
    fake.table_extra["n"] = made_on + 2  # the game moves on while the socket is down
    fake.drop_next_act = True
    card(browser, "AS").click()
    sent = fake.wait_for(lambda: len(acts(fake)) == 2 and acts(fake))
    assert [(a["action"], a["n"]) for a in sent] == [("AS", made_on), ("AS", made_on)]
    assert sent[0]["key"] == sent[1]["key"]
    # The resend went once the reconnect's table came: a tap now is made on that table.
    card(browser, "3S").click()
    later = fake.wait_for(lambda: len(acts(fake)) == 3 and acts(fake))
    assert (later[2]["action"], later[2]["n"]) == ("3S", made_on + 2)


def test_a_refusal_is_shown_in_plain_words_and_not_resent(
    browser: Driver, fake: FakeActivityServer
) -> None:
    from selenium.webdriver.common.by import By

    open_table(browser, fake, tables.ALEX, lambda: tables.nines_play(0))
    fake.refuse_acts = "It is not your turn."
    card(browser, "AS").click()
    notice = browser.find_element(By.CSS_SELECTOR, "[data-region=notice]")
    wait_js(browser, "return document.querySelector('[data-region=notice]').textContent !== ''")
    assert notice.text == "It is not your turn."
    # Refused is answered: the card may be tried again, under a new key.
    fake.refuse_acts = None
    card(browser, "AS").click()
    sent = fake.wait_for(lambda: len(acts(fake)) == 2 and acts(fake))
    assert sent[0]["key"] != sent[1]["key"]


#: Runs the page's clock and timers 50 times faster, so that the 10-s heartbeat and the 30-s
#: silence take a fraction of a second (installed before the page's own scripts run).
FAST_TIME = """
(() => {
  const f = 50, t0 = Date.now(), now = Date.now.bind(Date);
  Date.now = () => t0 + (now() - t0) * f;
  const si = setInterval.bind(window), st = setTimeout.bind(window);
  window.setInterval = (fn, ms, ...a) => si(fn, (ms || 0) / f, ...a);
  window.setTimeout = (fn, ms, ...a) => st(fn, (ms || 0) / f, ...a);
})();
"""


def test_heartbeat_pings_every_10_s_and_a_silent_socket_is_replaced(
    browser: Driver, fake: FakeActivityServer
) -> None:
    script = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FAST_TIME})
    try:
        open_table(browser, fake, tables.ALEX, lambda: tables.nines_play(0))
        fake.wait_for(lambda: len(fake.sent("ping")) >= 2)  # 20 s of page time
        assert len(fake.sent("hello")) == 1
        fake.answer_pings = False  # the server goes silent: after 30 s the client reconnects
        hellos = fake.wait_for(lambda: len(fake.sent("hello")) >= 2 and fake.sent("hello"))
        assert hellos[1].socket != hellos[0].socket
        assert hellos[1].frame["last_seq"] == fake.seq
    finally:
        browser.execute_cdp_cmd(
            "Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]}
        )
        fake.answer_pings = True


def test_the_client_works_under_discords_proxy_prefix(
    browser: Driver, fake: FakeActivityServer
) -> None:
    from selenium.webdriver.common.by import By

    open_table(browser, fake, tables.ALEX, lambda: tables.nines_play(0), prefix="/.proxy/")
    assert len(browser.find_elements(By.CSS_SELECTOR, "button.card")) == 9
    assert fake.sent("hello")


# Cards moving (web/src/motion.ts) ------------------------------------------------------------

#: Run in the page: records every Web Animation started from now on (what it moves and from
#: where), and keeps the hand's card elements, to tell a hand changed in place from one redrawn.
RECORD_ANIMATIONS = """
window.__animated = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  window.__animated.push({card: this.dataset.card || null, from: frames[0].transform});
  return animate.call(this, frames, options);
};
window.__hand = [...document.querySelectorAll('.fan .card')];
"""


def after_playing(code: str) -> TableModel:
    """``nines_play(0)`` once Alex's ``code`` is on the trick: out of the hand, the turn on."""
    before = tables.nines_play(0)
    assert before.trick is not None and before.hand is not None
    played = Card.parse(code)
    return dataclasses.replace(
        before,
        trick=dataclasses.replace(before.trick, cards=(*before.trick.cards, PlayedCard(0, played))),
        hand=dataclasses.replace(
            before.hand,
            cards=tuple(c for c in before.hand.cards if c != played),
            legal=(),
            playable=frozenset(),
        ),
        turn=None,
    )


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced-motion"])
def test_a_card_played_flies_to_the_trick_unless_motion_is_reduced(
    browser: Driver, fake: FakeActivityServer, reduced: bool
) -> None:
    media = [{"name": "prefers-reduced-motion", "value": "reduce" if reduced else ""}]
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": media})
    try:
        open_table(browser, fake, tables.ALEX, lambda: tables.nines_play(0))
        browser.execute_script(RECORD_ANIMATIONS)
        fake.views[tables.ALEX] = lambda: after_playing("TS")
        card(browser, "TS").click()
        wait_js(browser, "return !!document.querySelector('.played[data-card=\"TS\"]')")
        # The hand is changed in place: the cards left are the elements they were.
        kept = "return window.__hand.filter(n => n.isConnected).map(n => n.dataset.card)"
        assert browser.execute_script(kept) == ["AS", "3S", "QH", "7H", "9C", "2C", "KD", "5D"]
        moved = [a for a in browser.execute_script("return window.__animated") if a["card"]]
        if reduced:
            assert moved == []
        else:
            # From where it stood in the hand (below and aside of its place on the trick).
            assert [a["card"] for a in moved] == ["TS"]
            dx, dy = (float(v) for v in re.findall(r"(-?[\d.]+)px", moved[0]["from"]))
            assert dy > 50 and dx != 0, moved
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


# Sizes: nothing overlaps, nothing overflows --------------------------------------------------

#: Run in the page: no text overflowing its box, nothing off screen, no overlapping panels or
#: trick cards, a fan that leaves each card's corner index in view.
LAYOUT_CHECK = (Path(__file__).with_name("layout_check.js")).read_text()

SIZES = {"phone": (360, 740), "landscape": (740, 360), "desktop": (1280, 800)}
#: The least share of the screen's height the cards in play take (the hand's rows and the
#: trick, laid out), at the sizes issue 46 measured.
CARDS_SHARE = {"phone": 0.32, "desktop": 0.38}
POSITIONS: dict[str, tuple[int, Callable[[], TableModel], str]] = {
    "nines": (tables.ALEX, lambda: tables.nines_play(0), "en"),
    "nein-nine-fr": (tables.BEA, lambda: tables.nein_nine_play(1), "fr"),
    "joker-call": (tables.BEA, lambda: tables.nein_nine_play(1), "fr"),
    "exchange": (tables.ALEX, lambda: tables.nines_exchange(0), "fr"),
    "partnership": (tables.ALEX, lambda: tables.partnership_play(0), "en"),
    "watcher": (555, lambda: tables.nines_play(None), "en"),
    "end": (tables.ALEX, tables.nines_over, "fr"),
}


TRANSITIONS_OVER = """return document.getAnimations()
    .every(a => !(a instanceof CSSTransition) || a.playState !== 'running')"""


@pytest.mark.parametrize("size", list(SIZES))
def test_layout_fits_without_overlap_or_overflow(
    browser: Driver, fake: FakeActivityServer, size: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    found = {}
    for position, (user, view, locale) in POSITIONS.items():
        open_table(browser, fake, user, view, locale=locale, size=SIZES[size])
        if position == "joker-call":
            card(browser, "JK").click()  # its call asked: Win / Lose / Cancel
        # The raise transition (every CSS transition) over before the layout is measured;
        # not the turn timer's bar, an animation that lasts the turn.
        wait_js(browser, TRANSITIONS_OVER)
        report = browser.execute_script(LAYOUT_CHECK)
        browser.save_screenshot(str(SHOTS / f"{position}-{size}.png"))
        if report["problems"]:
            found[position] = report["problems"]
        if position in {"nines", "partnership"}:
            # Legible: a hand card at least 44 px wide, whatever the screen.
            assert report["cw"] >= 44, (position, report)
        least = CARDS_SHARE.get(size)
        if least is not None and position in {"nines", "partnership", "nein-nine-fr"}:
            # Issue 46, item 17: the cards use the felt (they took 24 % of a phone's height
            # and 32 % of a desktop's before).
            assert report["share"] >= least, (position, size, report)
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)
