"""Issue 30.6: a custom_id is parsed once into a typed click, and every kind of click is
formatted and parsed back by the same template."""

from __future__ import annotations

import doctest
import re

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cogs.nines import ids, ui
from engine import FULL_DECK, JOKER, Exchange, Play

BIG = 999_999_999_999_999_999  # the largest game id a custom_id carries (18 digits)

#: At least one click of every kind, at the edges of what each field takes.
EXAMPLES: list[ids.Click] = [
    *(ids.LobbyClick(42, verb) for verb in ids.LOBBY_VERBS),
    ids.HandClick(1),
    ids.HandClick(BIG),
    *(ids.PlayClick(42, 7, card) for card in (*FULL_DECK, JOKER)),
    ids.PlayClick(42, 0, JOKER),
    ids.PlayClick(42, 9_999_999, FULL_DECK[0]),
    ids.ExchangeClick(42, 3, chosen=True),
    ids.ExchangeClick(42, 3, chosen=False),
    ids.JokerClick(42, 12, chosen=True),
    ids.JokerClick(42, 12, chosen=False),
    ids.BackClick(42),
    ids.RematchClick(42),
    ids.ForgetClick(1),
    ids.ForgetClick(99_999_999_999_999_999_999),
]


def test_every_kind_is_exemplified() -> None:
    assert {type(click) for click in EXAMPLES} == set(ids.KINDS)


@pytest.mark.parametrize("click", EXAMPLES, ids=str)
def test_a_click_round_trips_through_its_custom_id(click: ids.Click) -> None:
    custom_id = click.custom_id
    assert custom_id.startswith(ids.PREFIX) and len(custom_id) <= 100  # Discord's limit
    assert ids.parse(custom_id) == click
    assert ids.is_ours(custom_id)
    # Exactly its own kind's template takes it: one kind per custom_id.
    assert [t for t in ids.ALL if t.parse(custom_id) is not None] == [type(click).TEMPLATE]


def test_the_typed_fields_read_as_the_text_did() -> None:
    assert ids.parse("nines:1:lobby:5:cpu-hard") == ids.LobbyClick(5, "cpu-hard")
    assert ids.LobbyClick(5, "cpu-hard").level == "hard"
    assert ids.LobbyClick(5, "uncpu").level is None
    assert ids.parse("nines:1:xchg:5:3:keep") == ids.ExchangeClick(5, 3, chosen=False)
    assert ids.parse("nines:1:joker:5:3:lose") == ids.JokerClick(5, 3, chosen=False)
    played = ids.parse("nines:1:play:5:3:JK")
    assert isinstance(played, ids.PlayClick) and played.card is JOKER
    assert ids.parse("nines:1:forget:77") == ids.ForgetClick(77)


@pytest.mark.parametrize(
    "custom_id",
    [
        "",
        "nines:1:",
        "nines:2:hand:42",  # another version
        "nines:1:hand:042",  # a leading zero: one id, one text
        "nines:1:hand:0",
        "nines:1:hand:-42",
        "nines:1:hand:1234567890123456789",  # 19 digits: past a game id
        "nines:1:hand:42:",
        " nines:1:hand:42",
        "nines:1:hand:42\n",
        "nines:1:hand:٤٢",  # Arabic-Indic digits: int() reads them, the template does not
        "NINES:1:HAND:42",
        "nines:1:lobby:42:cpu-expert",
        "nines:1:lobby:42:cpu-",
        "nines:1:play:42:7:9X",
        "nines:1:play:42:7:9h",
        "nines:1:play:42:7:10H",
        "nines:1:play:42:07:9H",
        "nines:1:play:42:12345678:9H",
        "nines:1:play:42:7",
        "nines:1:xchg:42:7:maybe",
        "nines:1:joker:42:7:WIN",
        "nines:1:forget:0",
        "nines:1:forget:123456789012345678901",
        "nines:1:back:42:7",
    ],
)
def test_a_forged_custom_id_is_no_click(custom_id: str) -> None:
    assert ids.parse(custom_id) is None
    assert not ids.is_ours(custom_id)


NEAR_IDS = r"nines:1:(lobby|hand|play|xchg|joker|back|rematch|forget)(:[-0-9A-Za-z]{0,8}){1,3}"


@given(custom_id=st.text(max_size=60) | st.from_regex(NEAR_IDS, fullmatch=True))
def test_whatever_parses_is_its_own_custom_id(custom_id: str) -> None:
    """A custom_id is a click only in its one canonical text: formatting the parsed click
    gives the very same id back."""
    click = ids.parse(custom_id)
    if click is not None:
        assert click.custom_id == custom_id


async def test_each_button_parses_its_own_kind() -> None:
    """The DynamicItems discord.py routes by regex hand the controller the typed click."""
    assert {b.kind for b in ui.DYNAMIC_ITEMS} == set(ids.KINDS)
    for click in EXAMPLES:
        (item,) = [
            b
            for b in ui.DYNAMIC_ITEMS
            if b.__discord_ui_compiled_template__.fullmatch(click.custom_id)
        ]
        assert item.kind is type(click)
        match = item.__discord_ui_compiled_template__.fullmatch(click.custom_id)
        assert isinstance(match, re.Match)
        button = discord.ui.Button[discord.ui.View](custom_id=click.custom_id)
        built = await item.from_custom_id(None, button, match)  # type: ignore[arg-type]
        assert isinstance(built, item) and built.click == click
        assert built.custom_id == click.custom_id


def test_docstring_examples() -> None:
    result = doctest.testmod(ids)
    assert result.attempted > 0 and result.failed == 0


def test_a_move_is_the_click_of_its_button() -> None:
    """Tests and benches click the button of an engine action (``ids.move_click``)."""
    nine = FULL_DECK[7]
    assert ids.move_click(42, 3, Exchange(True)) == ids.ExchangeClick(42, 3, chosen=True)
    assert ids.move_click(42, 3, Play(nine)) == ids.PlayClick(42, 3, nine)
    assert ids.move_click(42, 3, Play(JOKER, "lose")) == ids.JokerClick(42, 3, chosen=False)
    click = ids.move_click(42, 3, Play(JOKER, "win"))
    assert ids.parse(click.custom_id) == ids.JokerClick(42, 3, chosen=True)
