"""Issue 39: no name breaks a message, and two people never read the same, over whole games.

Hypothesis draws the seats' names (code fences, markdown, mentions, right-to-left and combining
characters, control characters, 32-character names, duplicates); a whole game of each ruleset
is rendered with them (tests/rendered_games.py: the lobby, the draw, the table after every
move, every seat's private hand in both languages, every summary, the end, the closed hands, a
stopped game, the leaderboard and the stats), card faces on, and every message is checked:

- its code blocks are balanced: an even number of fences, and outside them an even number of
  unescaped backticks (no code span left open);
- each name is escaped (``tests/test_names.assert_inert``): every name stands between FSI and
  PDI, and inside, once Discord's escape pairs are removed, no character is markup (``* _ ~ |``,
  a backtick, brackets, a backslash), nothing starts a quote, header or list, no ``://``
  starts a link, and every ``@`` and ``<`` is followed by a zero-width space; and no name with
  any of those characters shows outside such an isolated, escaped stretch;
- it pings nobody it should not: no ``@everyone`` or ``@here`` can be parsed from it, the
  only ``<@id>`` is the seated person whose turn it is, in the turn message's content (never
  in an embed; the table has no content, issue 38), and that message's allowed mentions let
  that person alone through;
- it tells every seat apart: the names the table shows are those ``names.distinct`` gives,
  different from each other (case and width folded), and the sheet's codes too.
"""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.table import short_codes
from bot.words import FSI, PDI, clean, distinct
from cogs.nines.render.cards import CardStyle

from .rendered_games import Shown, play, synced_faces
from .test_names import ISSUE_NAMES, MARKUP, assert_inert, seen

FACES = CardStyle(synced_faces())
PLAYERS = {"classic": 3, "partnership": 4, "four-player": 4, "nein-nine": 3}
SPAN = re.compile(f"{FSI}(.*?){PDI}", re.S)
MENTION = re.compile(r"<@[!&]?(\d+)>|@everyone|@here")
HOSTILE = "`*_~|[]\\<>@#-+.:/ 1"
#: Characters people's names are made of, and those chosen to break things.
ALPHABET = st.one_of(
    st.sampled_from(list(HOSTILE)),
    st.sampled_from(["é", "Z", "ن", "王", "\u0301", "\u0308", "🏴", "👍", "\U0001f3fd"]),
    st.sampled_from(["\u202e", "\u2066", "\u200b", "\u200d", "\x00", "\x1b", "\n", "\u3164"]),
    st.characters(exclude_categories=("Cs",)),
)
NAME = st.one_of(
    st.sampled_from(ISSUE_NAMES),
    st.text(ALPHABET, min_size=0, max_size=32),
    st.just("Bartholomew-Maximilian Fitzgera"[:32].ljust(32, "x")),
)


@st.composite
def tables(draw: st.DrawFn, players: int) -> list[str]:
    """A table's names, often with two of them the same (or the same but for case)."""
    names = draw(st.lists(NAME, min_size=players, max_size=players))
    twin = draw(st.sampled_from(["none", "same", "case"]))
    if twin != "none":
        names[1] = names[0] if twin == "same" else names[0].swapcase()
    return names


def fold(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold()


def outside_code(text: str) -> list[str]:
    """The stretches of ``text`` outside its code blocks."""
    return text.split("```")[::2]


def check_message(shown: Shown, names: list[str], people: dict[int, int]) -> None:
    """One message, as the module's docstring states the checks."""
    for text in shown.markdown:
        assert text.count("```") % 2 == 0, (shown.kind, text)
        for stretch in outside_code(text):
            unescaped = len(re.findall(r"(?<!\\)`", stretch))
            assert unescaped % 2 == 0, (shown.kind, stretch)
        for span in SPAN.findall(text):
            assert_inert(FSI + span + PDI)
        bare = outside_code(SPAN.sub("", text))  # the message's own words, its blocks' fences off
        for name in names:
            cleaned = clean(name)
            if set(cleaned) & (MARKUP | set("@<")):
                assert not any(cleaned in words for words in bare), (shown.kind, name, text)
        for mention in MENTION.finditer(text):
            assert mention.group(1) is not None, (shown.kind, text)  # no @everyone, no @here
            assert int(mention.group(1)) in people.values(), (shown.kind, text)
            assert shown.kind == "ping" and text == shown.content, (shown.kind, text)
            assert shown.allowed is not None and shown.allowed.users is not True
            allowed = shown.allowed.users or []
            assert [u.id for u in allowed] == [int(mention.group(1))], (shown.kind, text)
            assert not shown.allowed.roles
    assert shown.allowed is None or not shown.allowed.everyone


def check_apart(shown: Shown, names: list[str], computers: list[bool]) -> None:
    """The table shows every seat by the name ``distinct`` gives it, all different."""
    expected = distinct(names, computers)
    assert len({fold(n) for n in expected}) == len(expected)
    assert shown.embed is not None
    description = shown.embed.description or ""
    # The scores are packed on as many lines as fit a phone (issue 38, third pass): from the
    # "Scores" line up to whose turn it is ("To play"), the description's last line.
    lines = description.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("Scores"))
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("To play")), None)
    scores = "\n".join(lines[start:end])
    shown_names = {seen(span) for span in SPAN.findall(scores)}
    # ``expected`` is what a reader must see, compared as it is: not read as markdown, where the
    # name "\¡" would lose its backslash (the message escapes it, so a reader sees "\¡").
    assert shown_names == set(expected), (scores, expected)


def run(ruleset: str, names: list[str], lang: str) -> None:
    players = PLAYERS[ruleset]
    computers = [False] * (players - 1) + [True]
    people = {seat: 10**17 + seat for seat in range(players - 1)}
    tables_seen = 0
    for shown in play(ruleset, 3, names, lang, FACES, computers=1):
        check_message(shown, names, people)
        if shown.kind == "table" and lang == "en":
            check_apart(shown, names, computers)
            tables_seen += 1
        if shown.kind == "end":
            assert shown.embed is not None
            legend = (shown.embed.description or "").split("```")[-1]
            # A computer's code is made from its name like a person's (issue 46: not N1).
            codes = short_codes(lang, distinct(names, computers))
            assert len({c.casefold() for c in codes}) == players
            # The legend spells each code out as "Name (code)" (issue 38, third pass).
            assert all(f"{PDI} ({c})" in legend for c in codes), (codes, legend)
    assert lang != "en" or tables_seen


EXAMPLES = settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.parametrize("ruleset", list(PLAYERS))
@EXAMPLES
@given(data=st.data())
def test_no_name_breaks_a_message_and_every_seat_reads_apart(
    ruleset: str, data: st.DataObject
) -> None:
    names = data.draw(tables(PLAYERS[ruleset]), label="names")
    lang = data.draw(st.sampled_from(["en", "fr"]), label="lang")
    run(ruleset, names, lang)


ISSUE_TABLES = {
    "classic": ["Alex", "Alex", "```"],
    "nein-nine": ["**Zoé** _x_ ||s||", "@everyone", "نادية"],
    "partnership": ["Alex", "Alex", "@everyone", "نادية"],
    "four-player": ["```", "**Zoé** _x_ ||s||", "Alex", "alex"],
}


@pytest.mark.parametrize("ruleset", list(PLAYERS))
def test_the_issues_names_in_a_whole_game(ruleset: str) -> None:
    """The names the issue was found with (two Alex among them) in every ruleset."""
    run(ruleset, ISSUE_TABLES[ruleset], "en")


def test_a_backslash_before_punctuation_reads_as_written() -> None:
    """Found by the drawn names: a backslash before a mark (``\\¡``, ``\\*``) is the name's own,
    shown escaped, so the reader sees it."""
    run("classic", ["\\¡", "\\*a", "Zoé"], "en")
