"""Issue 38, the third pass, as the public table, the sheet and the rules read on a phone
(items 1, 3, 4, 5, 6, 10 and 15), and no public line longer than a phone shows in two lines
(``cogs/nines/render/phone.py`` says why 80 characters).

Render-level tests build the table model from seeded engine games, as the bot does, and read
what it would send; the turn's mention is checked against the Discord double.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.game import points_of
from bot.game.session import SeatInfo
from bot.table import TableModel, build, build_lobby, trick_of
from bot.words import card_label, tr
from cogs.nines import render
from cogs.nines.controller import computer_name
from cogs.nines.render.phone import (
    PHONE_LINE,
    SHEET_LINE,
    packed,
    paragraph_lines,
    shown_length,
)
from engine import RULESETS, DealerChosen, Game, HandEnded, Rules, TrumpSet
from engine.cli import random_game
from fakecord import FakeDiscord
from testbed.games import open_game
from testbed.people import play_to_the_end
from testbed.reading import as_read

from .conftest import StartBot

PEOPLE = ["Élodie Côté", "Alexandre"]
CODE_BLOCK = re.compile(r"```.*?```", re.S)


def seats_for(lang: str, players: int) -> list[SeatInfo]:
    """Two people, and computers named as the bot names them (a second one numbered)."""
    seats = [SeatInfo(n, user_id=10**17 + i) for i, n in enumerate(PEOPLE)]
    while len(seats) < players:
        seats.append(SeatInfo(computer_name(lang, "normal", seats), None, "normal"))
    return seats


def session_for(game: Game, lang: str, seats: list[SeatInfo] | None = None) -> Any:
    rules = game.rules
    seats = seats or seats_for(lang, rules.players)
    return SimpleNamespace(
        game=game,
        seats=seats,
        id=7,
        n=3,
        rules=rules,
        players=rules.players,
        language=lang,
        status="live",
        closed=False,
        lobby_deadline=1_800_000_000.0,
        deadline=1_800_000_000.0,
        host_id=seats[0].user_id,
        channel_id=1,
        lobby_channel_id=1,
    )


def embed_texts(embed: discord.Embed) -> Iterator[str]:
    yield embed.title or ""
    yield embed.description or ""
    for field in embed.fields:
        yield field.name or ""
        yield field.value or ""
    yield embed.footer.text or ""


def public_texts(ruleset: str, lang: str, settings: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Every public message of one whole seeded game, as (where, text): the lobby, the draw,
    the table after every move with every kind of note, each summary, the end, a stopped
    game, and ``/nines rules`` for these settings."""
    rules = Rules.from_settings(ruleset, settings)
    played = random_game(rules, 5)
    game = Game(rules, 5)
    session = session_for(game, lang)
    session.status = "lobby"
    for text in embed_texts(render.lobby_embed(lang, build_lobby(session))):
        yield "lobby", text
    session.status = "live"
    yield "draw", render.draw_line(lang, build(session, None))
    for seat, action in played.log:
        events = game.apply(seat, action)
        model = build(session, None)
        trumps = [e for e in events if isinstance(e, TrumpSet)]
        notes = render.change_notes(lang, model, timed_out=[seat], restored=True, trumps=trumps)
        if not game.over:
            for text in embed_texts(render.table_embed(lang, model, notes=notes, shown_tricks=0)):
                yield "table", text
        for event in events:
            if isinstance(event, HandEnded):
                hand = game.hands_log[event.number - 1]
                tricks = [trick_of(t, rules.players) for t in hand.tricks]
                for text in embed_texts(render.hand_summary(lang, model, event, tricks)):
                    yield "summary", text
    model = build(session, None)
    for text in embed_texts(render.end_embed(lang, model, [])):
        yield "end", text
    for text in embed_texts(render.stopped_embed(lang, model, tr(lang, "end.reason.stopped"))):
        yield "stopped", text
    for text in embed_texts(render.rules_embed(lang, rules)):
        yield "rules", text


GAMES = [
    (ruleset, lang, settings)
    for ruleset in sorted(RULESETS)
    for lang in ("en", "fr")
    for settings in (
        [{"rounds": 3}]
        if ruleset == "nein-nine"
        else [{"start": 3}, {"start": 3, "instant_win": "on", "exchange": "dealer"}]
    )
]


@pytest.mark.parametrize(("ruleset", "lang", "settings"), GAMES)
def test_no_public_line_wraps_twice_on_a_phone(
    ruleset: str, lang: str, settings: dict[str, Any]
) -> None:
    """A whole game of each ruleset in each language: every line of every public message
    (outside the score sheet's monospace block, checked apart) fits ``PHONE_LINE``."""
    seen = set()
    for where, text in public_texts(ruleset, lang, settings):
        seen.add(where)
        for line in CODE_BLOCK.sub("", text).splitlines():
            assert shown_length(line) <= PHONE_LINE, (where, shown_length(line), line)
        for block in CODE_BLOCK.findall(text):  # the sheet: narrower still, for a phone
            assert all(len(line) <= SHEET_LINE for line in block.splitlines()), (where, block)
    assert seen == {"lobby", "draw", "table", "summary", "end", "stopped", "rules"}


@pytest.mark.parametrize(
    ("ruleset", "seed"), [("classic", 161), ("four-player", 40), ("nein-nine", 9)]
)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_tie_break_hand_says_why_on_lines_a_phone_holds(
    ruleset: str, seed: int, lang: str
) -> None:
    """The hand played because of a tie (N8, G9; seeds from tests/test_table_model.py)."""
    settings = {"rounds": 2} if ruleset == "nein-nine" else {"start": 3}
    game = Game(Rules.from_settings(ruleset, settings), seed)
    rng = random.Random(seed)
    session = session_for(game, lang)
    seen = 0
    while game.turn is not None:
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
        model = build(session, None)
        if model.tiebreak is not None and game.turn is not None:
            text = render.table_embed(lang, model).description or ""
            assert all(shown_length(line) <= PHONE_LINE for line in text.splitlines()), text
            seen += 1
    assert seen


def test_the_measure_and_the_breaking() -> None:
    """What a phone shows is counted, not markup: bold markers take no room, a custom emoji
    about three letters, a 🤖 two; a paragraph breaks after a sentence, never at a French
    no-break space."""
    assert shown_length("**A♥** <:c_AH:123456789012345678> 🤖") == 2 + 1 + 3 + 1 + 2
    text = "Il faut fournir à la couleur demandée si on le peut\u202f; " * 4 + "fin."
    lines = paragraph_lines(text)
    assert len(lines) > 1 and all(shown_length(line) <= PHONE_LINE for line in lines)
    assert " ".join(lines) == text and not any(line.startswith(";") for line in lines)
    assert packed(["a" * 50, "b" * 50], first="X: ") == ["X: " + "a" * 50, "b" * 50]


# -- item 1: the instant win ------------------------------------------------------------------


def instant_game(lang: str) -> tuple[TableModel, HandEnded, Any]:
    """Classic with instant win, seed 0: hand 2 stops at trick 11, its winner at 0."""
    rules = Rules.from_settings("classic", {"start": 3, "instant_win": "on"})
    game = Game(rules, 0)
    rng = random.Random(0)
    session = session_for(game, lang)
    while game.turn is not None:
        for event in game.apply(game.turn, rng.choice(game.legal_actions(game.turn))):
            if isinstance(event, HandEnded) and event.instant_win:
                return build(session, None), event, game
    raise AssertionError("no instant win")


def test_an_instant_win_says_who_stopped_the_hand_and_what_the_total_did() -> None:
    model, result, game = instant_game("en")
    assert sum(result.tricks_won) == 11 and result.number == 2
    winner = next(u for u in range(3) if result.scores[u] <= 0)
    tricks = [trick_of(t, 3) for t in game.hands_log[1].tricks]
    # Read as people do: the names stand between bidi isolates (bot/words/names.py).
    text = as_read(render.hand_summary("en", model, result, tricks).description or "")
    name = model.seats[winner].name
    assert f"Instant win: {name} reached 0 at trick 11.\nThe hand stopped there" in text
    # Only the winner's score moved: its change beside it; the others' have no bracket, and no
    # "(0)" (issue 46).
    scores_line = next(ln for ln in text.splitlines() if ln.startswith("Scores: "))
    assert scores_line.count("(") == 1 and "(0)" not in text.split("```")[0]
    # The sheet has no total column (issue 46), so nothing to explain about it.
    assert "Tot" not in text
    rules = render.rules_embed("en", game.rules)
    scoring = " ".join(f.value or "" for f in rules.fields).replace("\n", " ")
    assert "each player's column is their score so far" in scoring and "Tot" not in scoring
    fr_model, fr_result, _ = instant_game("fr")
    fr = render.hand_summary("fr", fr_model, fr_result, tricks).description or ""
    fr_scores = next(ln for ln in fr.splitlines() if ln.startswith("Scores\u00a0: "))
    assert "Victoire immédiate\u00a0:" in fr and fr_scores.count("(") == 1
    assert "au pli 11" in fr


# -- item 3: one mention of whose turn it is ----------------------------------------------------


@pytest.mark.slow(20)
async def test_the_table_names_whose_turn_and_only_the_turn_message_mentions_them(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    await start_bot()
    users = [fake.add_user(n) for n in ("alice", "bob")]
    mark = len(fake.requests)
    await open_game(fake, users[0], people=(users[1],), computers=("normal",), start=3)
    await play_to_the_end(fake, users, fake.channel)
    tables = pings = 0
    for r in fake.requests[mark:]:
        if r.method not in ("POST", "PATCH") or not isinstance(r.body, dict):
            continue
        content = str(r.body.get("content") or "")
        titles = [str(e.get("title", "")) for e in r.body.get("embeds") or []]
        if any(" · Hand " in t for t in titles):  # the table
            tables += 1
            assert "<@" not in content and "your turn" not in content, content
        elif "your turn" in content:
            pings += 1
            assert re.fullmatch(r"<@\d+>, your turn\.", content), content
    assert tables > 10 and pings > 0


# -- item 4: the sheet in words, computers by level ----------------------------------------------


def test_the_sheet_says_its_columns_in_words_and_names_a_computer_like_a_person() -> None:
    game = Game(Rules.from_settings("four-player", {"start": 3}), 3)
    rng = random.Random(3)
    while not game.sheet:
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
    codes = []
    for people in (["Nora", "Alexandre"], ["Élodie Côté", "Normand"]):
        seats = [SeatInfo(n, 10**17 + i) for i, n in enumerate(people)]
        seats += [SeatInfo("🤖 Normal bot", None, "normal"), SeatInfo("🤖 Hard bot", None, "hard")]
        model = build(session_for(game, "en", seats), None)
        codes.append([s.code for s in model.seats][2:])
        text = render.sheet_block("en", model, model.sheet)
        legend = as_read(text.split("```")[-1]).strip().splitlines()
        # A computer's code is made from its name, as a person's is (issue 46: not N1).
        assert re.search(r"🤖 Normal bot \((\w{2,3})\) · 🤖 Hard bot \(Har\)$", legend[0])
        assert not re.search(r"\([NHE]\d\)", legend[0]), legend[0]
        assert legend[1].startswith("Tr is the hand's trump: ")
        assert legend[2:] == ["Dl is the dealer."]  # no Tot column to explain (issue 46)
        assert "`" not in text.split("```")[-1]  # the legend is words, not code
    # Codes from names, for computers too: each told apart from who sits beside it.
    assert all(len(set(c)) == 2 for c in codes)
    seats = seats_for("fr", 4)
    model = build(session_for(game, "fr", seats), None)
    assert all(len(s.code) <= 3 and not s.code[1:].isdigit() for s in model.seats)


def test_the_lobby_and_rules_settings_are_set_on_lines_a_phone_holds() -> None:
    rules = Rules.from_settings("classic", {"exchange": "dealer", "instant_win": "on"})
    for lang in ("en", "fr"):
        lines = render.rules_line(lang, rules).splitlines()
        assert len(lines) > 1 and all(shown_length(line) <= PHONE_LINE for line in lines)
        assert lines[0].startswith(tr(lang, "ruleset.classic"))


# -- item 5: a redraw said to be one --------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_redraw_for_first_dealer_is_said_to_be_one(lang: str) -> None:
    game = Game(Rules.from_settings("partnership", {}), 8)
    chosen = game.opening[0]
    assert isinstance(chosen, DealerChosen) and len(chosen.rounds) == 2
    model = build(session_for(game, lang), None)
    lines = render.draw_line(lang, model).splitlines()
    assert " / " not in render.draw_line(lang, model)
    assert lines[0].startswith(tr(lang, "start.draw"))
    (at,) = [k for k, line in enumerate(lines) if line.startswith(tr(lang, "start.redraw"))]
    redraw = as_read(" ".join(lines[at:-1]))
    for seat, card in chosen.rounds[1]:
        assert f"{model.seats[seat].name} **{card_label(card, lang)}**" in redraw
    dealer = model.seats[model.first_dealer].name
    assert as_read(lines[-1]) == tr(lang, "start.first_dealer", dealer=dealer)


# -- item 6: the first 8's note ----------------------------------------------------------------


def test_the_first_eight_note_uses_a_sign_every_phone_draws() -> None:
    game = Game(Rules.from_settings("nein-nine", {}), 4)
    rng = random.Random(4)
    session = session_for(game, "en")
    while True:
        events = game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
        trumps = [e for e in events if isinstance(e, TrumpSet)]
        if trumps:
            break
    for lang in ("en", "fr"):
        (note,) = render.change_notes(lang, build(session, None), trumps=trumps)
        assert "🂨" not in note and note.startswith("8️⃣ ")
        assert all(shown_length(line) <= PHONE_LINE for line in note.splitlines())


# -- item 10: tricks still needed for the quota ------------------------------------------------


def test_the_table_says_how_many_tricks_each_still_needs() -> None:
    game = Game(Rules.from_settings("classic", {}), 2)
    rng = random.Random(2)
    session = session_for(game, "en")
    while len(game.tricks) < 5:
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
    model = build(session, None)
    text = as_read(render.table_embed("en", model).description or "")
    for seat in model.seats:
        left = seat.quota_left
        assert left is not None
        shown = f"{seat.name} **{seat.tricks_won}/4**"
        # The count against the quota says what is left; nothing repeats it (issue 46).
        assert shown in text and shown + " (" not in text
    fr = render.table_embed("fr", build(session_for(game, "fr"), None)).description or ""
    assert "(encore " not in fr and "/4**" in fr
    nein = build(session_for(Game(Rules.from_settings("nein-nine", {}), 2), "en"), None)
    assert "to go" not in (render.table_embed("en", nein).description or "")


# -- item 15: Nein Nine's last trick until the next card ---------------------------------------


def test_nein_nines_last_trick_stands_until_the_next_card_and_never_in_the_hand() -> None:
    game = Game(Rules.from_settings("nein-nine", {}), 6)
    rng = random.Random(6)
    session = session_for(game, "en")
    standing = gathered = 0
    head = tr("en", "table.last_trick", winner="", card="").split(",")[0]
    while game.turn is not None and game.hand_number == 1:
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
        if game.hand_number != 1:
            break
        table = render.table_embed("en", build(session, None), shown_tricks=0).description or ""
        if game.tricks and not game.trick:
            assert head in table  # gathered at the next card, not before
            standing += 1
        else:
            assert head not in table and "Trick " not in table
            gathered += bool(game.tricks)
        for seat in range(3):
            hand = render.hand_content("en", build(session, seat))
            assert head not in hand  # G11: never in the private hand
    assert standing and gathered


@pytest.mark.parametrize("ruleset", ["classic", "partnership", "nein-nine"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_duplicate_matchs_sheet_fits_a_phone(ruleset: str, lang: str) -> None:
    """Issue 47: a duplicate match's second game, each hand's summary and its end: the running
    result's block as narrow as the sheet, its words on lines a phone holds, French set as
    the OQLF sets it; the first game says there is nothing to compare yet."""
    from engine.duplicate import Rotations
    from tests.test_french import typography_faults

    rules = Rules.from_settings(ruleset, {"rounds": 3} if ruleset == "nein-nine" else {"start": 3})
    first = random_game(rules, 5)
    game = Game(rules, 5)
    session = session_for(game, lang)
    session.duplicate = Rotations(rules.players, (points_of(first),))
    texts = []
    rng = random.Random(6)  # the same deals, played otherwise
    while not game.over:
        seat = game.turn
        assert seat is not None
        for event in game.apply(seat, rng.choice(game.legal_actions(seat))):
            if isinstance(event, HandEnded) and not game.over:
                model = build(session, None)
                tricks = [trick_of(t, rules.players) for t in game.hands_log[-1].tricks]
                texts += embed_texts(render.hand_summary(lang, model, event, tricks))
    model = build(session, None)
    assert model.duplicate is not None and model.duplicate.game == 2
    texts += embed_texts(render.end_embed(lang, model, []))
    said = "\n".join(texts)
    assert tr(lang, "sheet.duplicate_title", number=2, games=rules.players) in said
    for text in texts:
        for line in CODE_BLOCK.sub("", text).splitlines():
            assert shown_length(line) <= PHONE_LINE, (shown_length(line), line)
        for block in CODE_BLOCK.findall(text):
            assert all(len(line) <= SHEET_LINE for line in block.splitlines()), block
        if lang == "fr":
            assert typography_faults(text) == [], text
    session.duplicate = Rotations(rules.players)
    opening = render.end_embed(lang, build(session, None), []).description or ""
    assert tr(lang, "sheet.duplicate_title", number=1, games=rules.players) in opening
    assert paragraph_lines(tr(lang, "sheet.duplicate_first"))[0] in opening
