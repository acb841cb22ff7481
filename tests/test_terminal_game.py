"""The terminal game (``python -m engine play``): cards typed as printed, help, a chosen level."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine import Rules
from engine.cli import DEFAULT_LEVEL, play_terminal, read_action

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("typed", "action"),
    [
        ("10♣", "TC"),
        ("10C", "TC"),
        ("10c", "TC"),
        ("TC", "TC"),
        (" tc ", "TC"),
        ("♣10", "TC"),
        ("10♣\ufe0f", "TC"),  # the emoji form some keyboards send
        ("Q♦", "QD"),
        ("qd", "QD"),
        ("A♠", "AS"),
        ("2h", "2H"),
        ("keep", "keep"),
        ("SWAP", "swap"),
        ("JK win", "JK:win"),
        ("joker lose", "JK:lose"),
        ("🃏 w", "JK:win"),
        ("JK:lose", "JK:lose"),
    ],
)
def test_cards_and_moves_are_read_as_printed_and_by_letters(typed: str, action: str) -> None:
    assert str(read_action(typed)) == action


@pytest.mark.parametrize("typed", ["", "zz", "1C", "10X", "JK", "JK maybe", "11H"])
def test_anything_else_is_refused_with_a_hint(typed: str) -> None:
    with pytest.raises(ValueError, match=r"help|Joker|card"):
        read_action(typed)


class Person:
    """Types, at each prompt, one of the moves the game just printed, exactly as printed;
    asks for help and the sheet once, and tries a refused move once."""

    def __init__(self, extra: list[str]) -> None:
        self.out: list[str] = []
        self.extra = extra
        self.typed: list[str] = []

    def write(self, text: str) -> None:
        self.out.append(text)

    def read(self, prompt: str) -> str:
        if self.extra:
            text = self.extra.pop(0)
        else:
            offered = self.out[-1].split("You may: ", 1)[1].split("   (help)")[0]
            text = offered.split("  ")[-1]  # the last move offered, e.g. "10♣" or "🃏 lose"
        self.typed.append(text)
        return text


@pytest.mark.parametrize(("ruleset", "level"), [("classic", "normal"), ("nein-nine", "easy")])
def test_a_whole_game_typed_as_printed(ruleset: str, level: str) -> None:
    person = Person(["help", "sheet", "zz"])
    game = play_terminal(
        Rules.from_settings(ruleset, {"rounds": "2"} if ruleset == "nein-nine" else {"start": "3"}),
        seed=12,  # in Nein Nine, a deal that gives the person the Joker
        read=person.read,
        write=person.write,
        level=level,
    )
    assert game.over
    text = "\n".join(person.out)
    assert f"against 2 computer players ({level})" in text
    assert f"Bot 2 ({level})" in text
    assert "Play a card by typing it as shown" in text  # help
    assert text.count("Not a card or a move: 'zz'") == 1  # the one refused move
    # Every other move was typed as printed, and accepted at once.
    played = [t for t in person.typed if t not in ("help", "sheet", "zz")]
    assert any("♣" in t or "♥" in t or "♦" in t or "♠" in t for t in played)
    if ruleset == "nein-nine":
        assert any(t.startswith("🃏 ") for t in played)  # the Joker, with its call
    assert "Game over" in text and "hand trump dealer" in text


def test_the_default_level_is_the_bots() -> None:
    from cogs.nines.settings import DEFAULTS

    assert DEFAULT_LEVEL == DEFAULTS["difficulty"] == "normal"


@pytest.mark.parametrize(("flag", "level"), [([], "normal"), (["--level", "hard"], "hard")])
def test_the_command_line_takes_a_level_and_stdin(flag: list[str], level: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "play", "--seed", "4", *flag],
        input="help\n10C\nquit\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    assert f"computer players ({level})" in done.stdout
    assert "Play a card by typing it as shown" in done.stdout
    assert "Game abandoned." in done.stdout
