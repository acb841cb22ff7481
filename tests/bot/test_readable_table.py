"""Issue 16, parts 3 and 5: cards told apart at a glance, the quota on the table, and a score
sheet that reads well on a phone, within Discord's limits for the longest games.

The renderers are pure: most tests build games with the engine and read what the bot would
send; the last one plays a game against the Discord double and reads what people see.
"""

from __future__ import annotations

import re
import unicodedata
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.game.session import SeatInfo
from bot.table import build, sheet_codes, trick_of
from cogs.nines import render, ui
from engine import Card, Game, HandEnded, Rules, seat_view
from engine.cli import random_game
from fakecord import FakeDiscord
from testbed.people import end_message, open_hand, play_to_the_end, table_message
from testbed.reading import as_read

from .conftest import StartBot

#: Discord's embed limits.
FIELD, DESCRIPTION, EMBED = 1024, 4096, 6000

LONG_NAMES = [
    "Alexandre Tremblay-Gagnon du Lac",  # 32 characters, as long as a display name gets
    "Alexandra Tremblay-Gagnon du Lac",
    "🤖 Bot Normal",
    "山田太郎 ✨ Élodie Côté-Bélanger",
]

#: (ruleset, settings, seed): the longest game of each ruleset among a few hundred random
#: ones (starting at 21, the highest start; Nein Nine with 30 rounds and a limit of 30).
LONGEST = [
    ("classic", {"start": "21"}, 349, 53),
    ("partnership", {"start": "21"}, 1, 39),
    ("four-player", {"start": "21"}, 5, 60),
    ("nein-nine", {"rounds": "30", "limit": "30"}, 152, 34),
]


def session_for(game: Game, names: list[str], language: str = "en") -> Any:
    seats = [
        SeatInfo(n, user_id=None if n.startswith("🤖") else 10**17 + i) for i, n in enumerate(names)
    ]
    return SimpleNamespace(
        game=game,
        seats=seats,
        id=7,
        n=3,
        deadline=None,
        rules=game.rules,
        language=language,
        host_id=None,
        status="live",
    )


def block_of(text: str) -> list[str]:
    """The lines of the first monospace block in ``text``."""
    return text.split("```\n", 1)[1].split("\n```", 1)[0].split("\n")


def assert_within_limits(embed: discord.Embed) -> None:
    assert len(embed) <= EMBED
    assert len(embed.description or "") <= DESCRIPTION
    assert all(len(f.value or "") <= FIELD and len(f.name or "") <= 256 for f in embed.fields)
    assert len(embed.title or "") <= 256


def assert_aligned(lines: list[str]) -> None:
    """Every line of the block takes the same width on a phone: nothing wide but letters
    (counted twice), no emoji or symbol that a phone may draw wider."""
    widths = set()
    for line in lines:
        for char in line:
            assert char.isascii() or unicodedata.category(char).startswith("L"), (char, line)
        if line != "...":
            widths.add(sheet_codes.display_width(line))
    assert len(widths) == 1, lines


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("ruleset", "settings", "seed", "hands"), LONGEST)
def test_the_longest_games_fit_and_their_sheets_line_up(
    lang: str, ruleset: str, settings: dict[str, str], seed: int, hands: int
) -> None:
    rules = Rules.from_settings(ruleset, settings)
    game = random_game(rules, seed)
    assert game.hand_number == hands and game.winners is not None
    session = session_for(game, LONG_NAMES[: rules.players])
    end = render.end_embed(lang, build(session, None), [])
    assert_within_limits(end)
    text = end.description or ""
    lines = block_of(text)
    assert_aligned(lines)
    # N12: a header, the starting scores, then every hand: number, trump, dealer, scores (each
    # a total so far); no column adds them up (issue 46: a checksum nobody needs).
    assert len(lines) == 2 + hands
    codes = sheet_codes.short_codes(lang, LONG_NAMES[: rules.players])
    for row, line in zip(game.sheet, lines[2:], strict=True):
        cells = line.split()
        assert cells[0] == str(row.number)
        assert cells[2] == codes[row.dealer]
        scores = [int(c) for c in cells[3 : 3 + rules.units]]
        assert scores == list(row.scores)
        assert len(cells) == 3 + rules.units  # no total column
    assert "Σ" not in text
    # The legend names everyone in full, their unique code after them (issue 38: in words).
    assert len({c.casefold() for c in codes}) == len(codes)
    for code, name in zip(codes, LONG_NAMES, strict=False):
        assert f"{name} ({code})" in as_read(text)
    # Every hand's summary and a table in the middle of the game fit too.
    replay = Game(rules, seed)
    during = session_for(replay, LONG_NAMES[: rules.players])
    summaries = 0
    for number, (seat, action) in enumerate(game.log):
        for event in replay.apply(seat, action):
            if isinstance(event, HandEnded):
                tricks = replay.hands_log[event.number - 1].tricks
                summary = render.hand_summary(
                    lang, build(during, None), event, [trick_of(t, rules.players) for t in tricks]
                )
                assert_within_limits(summary)
                assert_aligned(block_of(summary.description or ""))
                summaries += 1
        if number == len(game.log) // 2:
            assert_within_limits(render.table_embed(lang, build(during, None)))
    assert summaries == hands


def test_names_alike_keep_codes_apart() -> None:
    codes = sheet_codes.short_codes("en", ["Alexandre", "Alexandra", "alex"])
    assert len({c.casefold() for c in codes}) == 3 and codes[:2] == ["Ale", "Ala"]
    assert sheet_codes.short_codes("en", ["🤖 Bot Easy", "🤖 Bot Easy 2", "🎉"]) == [
        "BE",
        "Bo2",
        "P1",
    ]
    assert sheet_codes.short_codes("fr", ["🎉", "✨"]) == ["J1", "J2"]
    wide = sheet_codes.short_codes("en", ["山田太郎", "山本", "Bob"])
    assert all(sheet_codes.display_width(c) <= sheet_codes.CODE_WIDTH for c in wide)


def test_the_table_shows_the_quota_and_which_way_is_better() -> None:
    for ruleset, en, fr in [
        ("classic", "Quota: 4 tricks each · lowest score wins", "Quota\xa0: 4 plis chacun"),
        (
            "partnership",
            "Quota: 6 tricks a team · lowest score wins",
            "Quota\xa0: 6 plis par équipe",
        ),
        ("four-player", "Quota: 3 tricks each · lowest score wins", "Quota\xa0: 3 plis chacun"),
        ("nein-nine", "one 9 costs 1, two 2, three 4, all four 8.\nThe highest", "le plus haut"),
    ]:
        game = Game(Rules.from_settings(ruleset), seed=3)
        session = session_for(game, ["ann", "bob", "cy", "dee"][: game.rules.players])
        assert en in (render.table_embed("en", build(session, None)).description or "")
        assert fr in (render.table_embed("fr", build(session, None)).description or "")
    # Tricks are counted against the quota as the hand goes.
    game = Game(Rules.from_settings("classic"), seed=3)
    text = (
        render.table_embed("en", build(session_for(game, ["ann", "bob", "cy"]), None)).description
        or ""
    )
    # The quota beside the count says what is left: no "(4 to go)" repeating it (issue 46).
    assert "ann **0/4** · bob **0/4** · cy **0/4**" in as_read(text) and "to go" not in text


def styles(buttons: ui.Buttons) -> dict[str, tuple[int, bool]]:
    return {
        b["custom_id"].rsplit(":", 1)[1]: (b["style"], b["disabled"])
        for row in buttons.rows
        for b in row
        if ":play:" in b["custom_id"]
    }


def test_red_and_black_cards_and_the_playable_ones_stand_out() -> None:
    red, black, grey, green = (
        discord.ButtonStyle.danger.value,
        discord.ButtonStyle.primary.value,
        discord.ButtonStyle.secondary.value,
        discord.ButtonStyle.success.value,
    )
    game = Game(Rules.from_settings("classic"), seed=5)
    while (
        game.turn is not None
        and game.rules.game
        and seat_view(game, game.turn).table.phase == "exchange"
    ):
        game.apply(game.turn, game.legal_actions(game.turn)[0])
    game.apply(game.turn, game.legal_actions(game.turn)[0])  # a card is led: others follow
    session = session_for(game, ["ann", "bob", "cy"])
    on_turn = seat_view(game, game.turn)
    shown = styles(ui.hand_view("en", build(session, on_turn.seat)))
    legal = {str(a) for a in on_turn.legal}
    assert len(shown) == len(on_turn.hand)
    for code, (style, disabled) in shown.items():
        if code in legal:
            assert not disabled and style == (red if code[-1] in "HD" else black), code
        else:
            assert disabled and style == grey, code
    assert any(disabled for _, disabled in shown.values())  # following suit rules some out
    # Off turn: every card dimmed, in its suit's colour.
    other = seat_view(game, (game.turn + 1) % 3)
    for code, (style, disabled) in styles(ui.hand_view("en", build(session, other.seat))).items():
        assert disabled and style == (red if code[-1] in "HD" else black)
    # The Joker is green; 13 cards take three rows of at most five.
    nein = Game(Rules.from_settings("nein-nine"), seed=2)
    holder = next(s for s in range(3) if any(c.suit is None for c in seat_view(nein, s).hand))
    joker = styles(ui.hand_view("en", build(session_for(nein, ["a", "b", "c"]), holder)))
    assert joker["JK"][0] == green
    rows = ui.hand_view("en", build(session, on_turn.seat)).rows
    assert len(rows) <= 5 and all(len(r) <= 5 for r in rows)


@pytest.mark.slow(16)
async def test_a_game_read_as_people_see_it(fake_discord: FakeDiscord, start_bot: StartBot) -> None:
    """Alexandre and Alexandra play Élodie: the table says the quota, the hand shows red and
    black cards, and the sheets tell the two Alex apart, aligned, with every hand."""
    fake = fake_discord
    await start_bot()
    people = [fake.add_user(n) for n in ("Alexandre", "Alexandra", "Élodie Côté")]
    res = await fake.slash(people[0], fake.channel, "nines start", start=3)
    assert res.message is not None
    for person in people[1:]:
        await fake.click(person, res.message, "Join")
    await fake.click(people[0], res.message, "Start")
    await fake.settle()
    table = table_message(fake, people[0], fake.channel)
    assert table is not None
    assert "Quota: 4 tricks each · lowest score wins" in table.embeds[0]["description"]
    hand = await open_hand(fake, people[0], fake.channel)
    colours = {b.style for b in hand.buttons() if ":play:" in b.custom_id}
    assert discord.ButtonStyle.danger.value in colours
    assert discord.ButtonStyle.primary.value in colours
    end = await play_to_the_end(fake, people, fake.channel)
    text = end.embeds[0]["description"]
    lines = block_of(text)
    assert_aligned(lines)
    assert lines[0].split()[3:6] == ["Ale", "Ala", "Élo"]
    assert "Alexandre (Ale) · Alexandra (Ala) · Élodie Côté (Élo)" in as_read(text)
    summaries = [
        m
        for m in fake.visible(people[0], fake.channel)
        if m.embeds and "is over" in str(m.embeds[0].get("title"))
    ]
    assert summaries
    assert len(lines) == 2 + len(summaries)
    assert end_message(fake, people[0], fake.channel) is end
    # Rating changes signed with a real minus sign, one person a line.
    ratings = next(f for f in end.embeds[0]["fields"] if f["name"] == "Ratings")["value"]
    assert len(ratings.split("\n")) == 3
    assert all(
        re.fullmatch(r".+: \d[\d,]* \((\+|\u2212)?\d+\)", line) for line in ratings.split("\n")
    )
    assert "-" not in ratings  # a minus sign, not a hyphen


def test_the_private_hand_says_where_its_player_stands() -> None:
    for ruleset, en, fr in [
        ("classic", "Your tricks: 0/4 · your score: 9", "Vos plis\xa0: 0/4 · votre score\xa0: 9"),
        (
            "partnership",
            "Your team's tricks: 0/6 · team score: 9",
            "Plis de votre équipe\xa0: 0/6 · score de l'équipe\xa0: 9",
        ),
        ("nein-nine", "Your tricks: 0 · your score: 0", "Vos plis\xa0: 0 · votre score\xa0: 0"),
    ]:
        game = Game(Rules.from_settings(ruleset), seed=4)
        while seat_view(game, game.turn).table.phase == "exchange":
            game.apply(game.turn, game.legal_actions(game.turn)[0])
        session = session_for(game, ["ann", "bob", "cy", "dee"][: game.rules.players])
        view = seat_view(game, game.turn)
        assert en in render.hand_content("en", build(session, view.seat), None)
        assert fr in render.hand_content("fr", build(session, view.seat), None)


def test_a_name_that_ends_in_a_number_stays_apart_from_its_value() -> None:
    """ "🤖 Bot Normal 2 3" could be Bot Normal 23: each value after a name is in bold, in the
    table's tricks and scores, a team's too, and in Nein Nine with its stones after it."""
    for ruleset, names, tricks, scores in [
        (
            "partnership",
            ["ann", "bob", "🤖 Bot Normal", "🤖 Bot Normal 2"],
            "ann et 🤖 Bot Normal **0/6** · bob et 🤖 Bot Normal 2 **0/6**",
            "ann et 🤖 Bot Normal **9** · bob et 🤖 Bot Normal 2 **9**",
        ),
        (
            "four-player",
            ["ann", "bob", "🤖 Bot Normal", "🤖 Bot Normal 2"],
            "🤖 Bot Normal **0/3** · 🤖 Bot Normal 2 **0/3**",
            "🤖 Bot Normal **9** · 🤖 Bot Normal 2 **9**",
        ),
    ]:
        game = Game(Rules.from_settings(ruleset), seed=3)
        text = as_read(
            render.table_embed("fr", build(session_for(game, names), None)).description or ""
        )
        assert "Plis remportés\xa0: ann " in text and tricks in text, text
        assert scores in text, text
    assert render.named_score(Rules.from_settings("nein-nine"), "ann", 3) == "ann **+3** ○○○"
    assert render.named_score(Rules.from_settings("nein-nine"), "ann", -2) == "ann **−2** ●●"
    assert render.named_score(Rules.from_settings("nein-nine"), "ann", 0) == "ann **0**"


def test_the_joker_clicked_asks_for_its_call_in_words() -> None:
    """After a click on the Joker the hand's buttons become "Joker wins"/"Joker loses"; its
    text asks the question rather than "play a card" over cards that are all disabled."""
    games = (Game(Rules.from_settings("nein-nine"), seed=s) for s in range(100))
    game = next(
        g for g in games if g.turn is not None and any(c.suit is None for c in g.hands[g.turn])
    )
    session = session_for(game, ["ann", "bob", "cy"])
    view = seat_view(game, game.turn)
    for lang, asked, usual in [
        ("en", "Your Joker: does it win this trick or lose it?", "Your turn: play a card."),
        (
            "fr",
            "Votre Joker\xa0: gagne-t-il ce pli ou le perd-il\u202f?",
            "À vous\xa0: jouez une carte.",
        ),
    ]:
        prompt = render.hand_content(lang, build(session, view.seat), None, joker_prompt=True)
        assert asked in prompt and usual not in prompt
        assert usual in render.hand_content(lang, build(session, view.seat), None)


def test_every_trick_of_the_hand_shows_the_winning_card() -> None:
    """The end-of-hand list (N13): each card beside its player in play order, the winner's
    name and card in bold."""
    from engine import TrickWon

    game = Game(Rules.from_settings("classic"), seed=3)
    session = session_for(game, ["ann", "bob", "cy"])
    aces = tuple(Card.parse(c) for c in ("2H", "AH", "3H"))
    led_by_cy = TrickWon(number=1, leader=2, cards=aces, winner=0)  # cy 2♥, ann A♥, bob 3♥
    for lang in ("en", "fr"):
        shown = render.all_tricks(lang, build(session, None), [trick_of(led_by_cy, 3)])
        assert [as_read(line) for line in shown] == ["1. cy 2♥ · **ann A♥** · bob 3♥"]


def test_a_score_below_zero_reads_with_the_minus_sign():
    """The final ranking and the table write a Nines score below zero as prose does (U+2212)."""
    classic = Rules.from_settings("classic")
    assert render.named_score(classic, "ann", -2) == "ann **\u22122**"
    assert render.named_score(classic, "ann", 3) == "ann **3**"
