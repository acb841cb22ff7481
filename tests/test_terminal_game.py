"""The terminal game (``python -m engine play``): cards typed as printed, help, a chosen level."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine import Rules
from engine.cli import DEFAULT_LEVEL, GOODBYE, SETTING_HELP, play_terminal, read_action

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
    assert "Game over" in text
    if ruleset == "nein-nine":  # a round, with no trump before the first 8 (G5)
        assert "round trump dealer" in text and "== Round 1:" in text
        assert "trump: no trump yet (the first 8 sets it) ==" in text
        assert "== Hand" not in text and "Hand over" not in text and "  total" not in text
    else:
        assert "hand trump dealer" in text and "== Hand 1:" in text and "  total" in text


def test_the_default_level_is_the_bots() -> None:
    from cogs.nines.setting_values import DEFAULTS

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


def test_an_empty_line_asks_again_with_the_moves_of_the_moment() -> None:
    """In the exchange, Enter alone shows the prompt again (keep / swap), not "Type a card"."""
    person = Person(["", "", "quit"])
    play_terminal(Rules.from_settings("classic"), seed=1, read=person.read, write=person.write)
    prompts = [line for line in person.out if "You may: " in line]
    assert len(prompts) == 3 and prompts[0] == prompts[1] == prompts[2]
    assert "keep" in prompts[0] and "swap" in prompts[0]
    assert not any("Type a card" in line for line in person.out)


def test_end_of_input_says_goodbye() -> None:
    def read(prompt: str) -> str:
        raise EOFError

    out: list[str] = []
    game = play_terminal(Rules.from_settings("nein-nine"), seed=3, read=read, write=out.append)
    assert out[-1] == GOODBYE and not game.over


def test_ctrl_d_at_the_command_line_exits_with_a_goodbye() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "play", "--seed", "4"],
        input="help\n",  # then the end of input, as Ctrl-D gives it
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 0
    assert done.stdout.rstrip().endswith(GOODBYE)


def test_help_lists_the_rulesets_and_the_settings() -> None:
    from engine import RULESETS
    from engine.rules import DEFAULTS

    done = subprocess.run(
        [sys.executable, "-m", "engine", "play", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    for name, ruleset in RULESETS.items():
        assert f"  {name} " in done.stdout and ruleset.summary in done.stdout
    assert set(SETTING_HELP) == set(DEFAULTS)
    for key in DEFAULTS:
        assert f"  {key} " in done.stdout, key


@pytest.mark.parametrize(
    ("ruleset", "key", "good", "bad"),
    [
        ("classic", "trumps", ["quebec", "H,S,D,C,NT"], ["X"]),
        ("classic", "exchange", ["left", "dealer"], ["right"]),
        ("classic", "ties", ["play-on", "joint"], ["draw"]),
        ("classic", "instant_win", ["on", "off"], ["maybe"]),
        ("classic", "start", ["3", "21"], ["2", "22"]),
        ("nein-nine", "rounds", ["1", "30"], ["0", "31"]),
        ("nein-nine", "limit", ["1", "30"], ["0", "31"]),
    ],
)
def test_the_help_tells_the_values_the_rules_take(
    ruleset: str, key: str, good: list[str], bad: list[str]
) -> None:
    from engine.errors import SettingError

    for value in good:
        assert value.split(",")[0] in SETTING_HELP[key]
        Rules.from_settings(ruleset, {key: value})
    for value in bad:
        with pytest.raises(SettingError):
            Rules.from_settings(ruleset, {key: value})
