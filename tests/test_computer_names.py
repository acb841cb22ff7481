"""Computer players' names (issue 38, item 2): "🤖 Normal bot 2 2♥" read as a card of rank 2.
Each computer gets a short name of its own that no card beside it can run into."""

from __future__ import annotations

import pytest

from bot.game.session import SeatInfo
from bot.table import short_codes
from bot.words import LANGUAGES, card_label, catalogue, tr
from cogs.nines.controller import ROBOT, computer_name
from cogs.nines.render.lobby import lobby_embed
from cogs.nines.render.records import computer_row_name
from engine import Card, Suit
from testbed.reading import as_read

LEVELS = ("easy", "normal", "hard")


def card_words(lang: str) -> set[str]:
    """What a card is written as in ``lang``'s messages: its labels in both notations
    ("10♥", "V♠"), their ranks alone ("10", "V") and the ranks' and the Joker's words."""
    words = {tr(lang, f"rank.{r}").casefold() for r in range(2, 15)} | {"joker"}
    for notation in LANGUAGES:
        for rank in range(2, 15):
            label = card_label(Card(rank, Suit.HEARTS), notation)
            words |= {label.casefold(), label.rstrip("♥").casefold()}
    return words


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_computer_name_is_short_and_no_card(lang: str) -> None:
    every = [n for level in LEVELS for n in catalogue(lang)[f"computer.names.{level}"].split(", ")]
    assert len(every) == len(set(every)) == 15  # told apart across levels too
    cards = card_words(lang)
    for given in every:
        assert given.isalpha() and 3 <= len(given) <= 8, given  # one short word, no number
        assert given.casefold() not in cards, given
    # The score sheet's codes of all fifteen differ: a computer is the same code game to game.
    codes = short_codes(lang, [f"{ROBOT} {g}" for g in every])
    assert len({c.casefold() for c in codes}) == 15


@pytest.mark.parametrize("lang", LANGUAGES)
def test_three_computers_of_one_level_get_three_names_and_no_number(lang: str) -> None:
    seats = [SeatInfo("Zoé", 1)]
    for _ in range(3):
        seats.append(SeatInfo(computer_name(lang, "normal", seats), None, "normal"))
    names = [s.name for s in seats[1:]]
    assert len(set(names)) == 3
    assert all(n.startswith(f"{ROBOT} ") and not n[-1].isdigit() for n in names)
    first = catalogue(lang)["computer.names.normal"].split(", ")[0]
    assert names[0] == f"{ROBOT} {first}"  # the same first name from game to game
    # A card beside a name reads apart: one word after the robot, then the card.
    line = f"{names[1]} {card_label(Card(2, Suit.HEARTS), lang)}"
    assert line.split(" ")[1] == names[1].split(" ")[1] and len(line.split(" ")) == 3


def test_a_computer_never_takes_a_persons_name() -> None:
    """A person who calls themselves "🤖 max" (case aside) keeps it: the computer takes the
    next name of its level."""
    seats = [SeatInfo("🤖 max", 1)]
    assert computer_name("en", "normal", seats) == "🤖 Remy"
    # Every name of the level taken: the level's own name (told apart where shown).
    every = catalogue("en")["computer.names.easy"].split(", ")
    taken = [SeatInfo(f"{ROBOT} {g}", i) for i, g in enumerate(every)]
    assert computer_name("en", "easy", taken) == "🤖 Easy bot"


def test_the_lobby_says_each_computers_level_and_the_leaderboard_names_the_level() -> None:
    from types import SimpleNamespace

    from bot.table import build_lobby
    from engine import Rules

    seats = [SeatInfo("Zoé", 1)]
    seats.append(SeatInfo(computer_name("fr", "hard", seats), None, "hard"))
    source = SimpleNamespace(
        id=1,
        seats=seats,
        game=None,
        rules=Rules.from_settings("classic", {}),
        language="fr",
        host_id=1,
        status="lobby",
        deadline=None,
        players=3,
        channel_id=5,
        lobby_channel_id=5,
        closed=False,
        lobby_deadline=0.0,
    )
    embed = lobby_embed("fr", build_lobby(source))  # type: ignore[arg-type]
    assert "2. 🤖 Pascal · Difficile" in as_read(str(embed.fields[0].value))
    row = SimpleNamespace(player_key="cpu:hard", name="🤖 Pascal")
    assert computer_row_name("fr", row) == "🤖 Robot difficile"  # type: ignore[arg-type]
    assert computer_row_name("en", SimpleNamespace(player_key="cpu:x", name="B")) == "B"  # type: ignore[arg-type]
