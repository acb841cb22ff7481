"""Names as people write them (issue 39): ``bot/words/names.py`` on the issue's names and, by
hypothesis, on every kind of character.

How Discord reads a message, as the checks below state it (Discord's markdown, the rules
discord.py's ``escape_markdown`` is written against):

- a backslash before a character that is not a letter, a digit or a space shows that
  character as it is (the escape rule); what is left after removing those pairs is read;
- in what is left, ``* _ ~ |`` (bold, italics, underline, strikethrough, spoilers), a backtick
  (code), ``[`` and ``]`` (masked links) and a backslash are markup;
- at the start of a line: ``>`` (quote), ``#`` (header), ``-#`` (subtext), ``-``/``*``/``+``
  and ``1.`` (lists);
- ``scheme://`` starts a link;
- ``@everyone``, ``@here``, ``<@id>``, ``<@&id>``, ``<#id>``, ``<:e:id>``, ``<t:n>``,
  ``</cmd:id>`` are mentions: none is parsed when a zero-width space follows every ``@`` and
  ``<``.
"""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.storage import HistoryPlayer, HistoryRow
from bot.words import (
    FSI,
    PDI,
    ZWSP,
    clean,
    display_width,
    distinct,
    in_code,
    in_plain,
    in_text,
    names,
    shorten,
    stored,
)
from cogs.nines.records import HISTORY_NAME_LIMIT, history_embed

FENCE = "```"
ISSUE_NAMES = [
    FENCE,
    "**Zoé** _x_ ||s||",
    "@everyone",
    "<@1> @here",
    "نادية",
    "王小明",
    "Alex",
    "Alex",
    "Zoe\u0301\u0302",  # combining characters
    "a\x00b\x07c\x1b[0m\u202ed\u200be",  # control and format characters
    "Bartholomew-Maximilian Fitzgerald",  # 33 characters
    "ＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰＱＲＳＴＵＶＷＸＹＺ１２３４５６",  # 32, each two columns
]
MARKUP = set("*_~|`[]\\")
BIDI_CONTROLS = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
LINE_START = re.compile(r"^\s*(>|#|-|\*|\+|\d+\.)")


def read(text: str) -> str:
    """What Discord reads as markup in ``text``: the text with every escape pair removed."""
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text) and not (text[i + 1].isalnum() or text[i + 1].isspace()):
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def seen(text: str) -> str:
    """What a reader sees of ``text``: each escaped character as itself, no zero-width space."""
    out = re.sub(r"\\([^0-9A-Za-z\s])", r"\1", text)
    return out.replace(ZWSP, "")


def assert_inert(shown: str) -> None:
    """``shown`` (an ``in_text`` result) holds no markup, no mention, no link, and is isolated."""
    assert shown.startswith(FSI) and shown.endswith(PDI), repr(shown)
    inner = shown[1:-1]
    assert not BIDI_CONTROLS & set(inner), repr(shown)
    left = read(inner)
    assert not MARKUP & set(left), repr(shown)
    assert not LINE_START.match(inner), repr(shown)  # escaped: starts with a backslash
    assert "://" not in left, repr(shown)
    for at in re.finditer("[@<]", inner):
        assert inner[at.end() : at.end() + 1] == ZWSP, repr(shown)
    assert "@everyone" not in inner and "@here" not in inner


# -- the issue's names ---------------------------------------------------------------------------


def test_a_code_fence_name_neither_opens_a_block_in_text_nor_closes_one_in_code() -> None:
    assert in_text(FENCE) == FSI + r"\`\`\`" + PDI
    assert in_code(FENCE) == "ˋˋˋ"
    sheet = f"```\n{in_code(FENCE)}  12\n```"
    assert sheet.count("`") == 6  # the block's own fences only


def test_markdown_in_a_name_shows_as_written() -> None:
    assert in_text("**Zoé** _x_ ||s||") == FSI + r"\*\*Zoé\*\* \_x\_ \|\|s\|\|" + PDI
    # escape_markdown consumes a masked link's text unescaped: the brackets are escaped here
    assert in_text("[**x**](https://a.b/c_d)") == (FSI + r"\[\*\*x\*\*\](https\://a.b/c\_d)" + PDI)
    assert in_text("1. first") == FSI + r"1\. first" + PDI
    # a hyphen after a bracket is no line start: no stray backslash before a space
    assert in_text("[\r-") == FSI + r"\[ -" + PDI
    for line_start in ("# h", "### h", "-# small", "- item", "* item", "+ item", "> quote"):
        assert_inert(in_text(line_start))


def test_mentions_in_a_name_are_inert() -> None:
    assert in_text("@everyone") == FSI + "@" + ZWSP + "everyone" + PDI
    assert in_text("<@1> @here") == FSI + f"<{ZWSP}@{ZWSP}1> @{ZWSP}here" + PDI
    for mention in ("<#1>", "<:e:1>", "<@&12345678901234567>", "<t:1:R>", "</nines:1>", "@Here"):
        assert_inert(in_text(mention))


def test_a_right_to_left_name_is_isolated_and_kept() -> None:
    assert in_text("نادية") == FSI + "نادية" + PDI
    assert in_code("نادية", isolate=True) == FSI + "نادية" + PDI
    assert display_width(in_code("نادية", isolate=True)) == 5
    # a name cannot end the isolation early or override the direction around it
    assert in_text("a\u2069\u202eb") == FSI + "ab" + PDI


def test_wide_characters_take_two_columns_and_are_never_halved() -> None:
    assert display_width("王小明") == 6
    assert in_code("王小明", 5) == "王小…"  # 2 + 2 + 1: a third 王-wide letter would overflow
    assert display_width(in_code("王小明", 5)) == 5
    assert in_text("王小明", 4) == FSI + "王…" + PDI


def test_combining_characters_stay_on_their_letter() -> None:
    assert clean("Zoe\u0301") == "Zoé"  # NFC
    assert clean("Zoe\u0301\u0302") == "Zo\u00e9\u0302"  # é composed, the circumflex on it
    assert shorten("Zoe\u0301\u0302 Côté", 4) == "Zoe\u0301\u0302…"
    assert shorten("xe\u0301\u0302yz", 3) == "xe\u0301\u0302…"  # never a bare e
    # no base before it: it would sit on the text before the name
    assert clean("\u0301\u0302Zoé") == "Zoé"
    zalgo = "Z" + "\u0336\u0337\u0338\u0335\u0334\u0333" * 10 + "oé"
    assert clean(zalgo) == "Z\u0336\u0337\u0338\u0335oé"  # MAX_MARKS
    assert names.MAX_MARKS == 4
    # a joiner left last once the marks beyond MAX_MARKS go joins nothing: it goes too
    assert clean("0" + "\u0300" * 4 + "\u200c\u0300") == "0" + "\u0300" * 4


def test_control_and_invisible_characters_are_dropped() -> None:
    assert clean("a\x00b\x07c\x1b[0m\u202ed\u200be") == "abc[0mde"
    assert clean("  Zoé\n\tCôté\u2028\u00a0\u3000x  ") == "Zoé Côté x"
    assert clean("\u3164\u200b\u2800 ") == ""
    assert clean("\u3164", fallback="?") == "?"
    assert clean("\ue000x\ufffe") == "x"  # private use, noncharacter
    # joiners only where they join: an emoji family, a Persian word
    assert clean("\u200d👨\u200d👩\u200d👧\u200d") == "👨\u200d👩\u200d👧"
    assert clean("می\u200cخواهم") == "می\u200cخواهم"
    assert clean("a\u200d b") == "a b"
    # tag characters only as an emoji flag's (England); elsewhere they hide text
    england = "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
    assert clean(england + " x\U000e0041\U000e0042y") == england + " xy"


def test_long_names_are_shortened_with_an_ellipsis() -> None:
    long = "Bartholomew-Maximilian Fitzgerald"
    assert in_text(long) == FSI + long + PDI  # a hyphen is markup only at a line's start
    assert in_text(long, 12) == FSI + r"Bartholomew…" + PDI  # the trailing '-' fits: 11 + 1
    assert in_text("Zoé Côté et al.", 9) == FSI + "Zoé Côté…" + PDI
    assert in_text("Zoé Côté", 5) == FSI + "Zoé…" + PDI  # no space before the ellipsis
    assert in_code(long, 10) == "Bartholom…"
    wide = ISSUE_NAMES[-1]
    assert len(wide) == 32 and display_width(wide) == 64
    assert display_width(in_code(wide, 12)) == 11  # 5 wide letters and the ellipsis
    assert in_code("Ann", 10) == "Ann"


def test_a_stored_name_keeps_32_characters_and_whole_clusters() -> None:
    assert stored("x" * 40) == "x" * 32
    name = "x" * 31 + "e\u0301"  # 33 code points: the e and its accent go together
    assert stored(name) == "x" * 31
    assert stored("**Zoé**\u200b") == "**Zoé**\u200b"  # raw: cleaning happens at display


def test_two_alex_read_alex_and_alex_2_in_seat_order() -> None:
    seats = ["نادية", "Alex", "Alex"]
    assert distinct(seats, [False] * 3) == ["نادية", "Alex", "Alex (2)"]
    assert distinct(["ALEX", "alex", "Ａｌｅｘ"], [False] * 3) == [
        "ALEX",
        "alex (2)",
        "Ａｌｅｘ (3)",
    ]
    # a person joining later never renames an earlier one, even one already called "Alex (2)"
    assert distinct(["Alex", "Alex", "Alex (2)"], [False] * 3) == [
        "Alex",
        "Alex (2)",
        "Alex (2) (2)",
    ]
    # names that differ only in what is not drawn are the same name
    assert distinct(["Alex", "Al\u200bex\u202e"], [False, False]) == ["Alex", "Alex (2)"]


def test_a_computer_never_has_a_persons_name() -> None:
    bot = "🤖 Normal bot"
    assert distinct([bot, bot], [True, False]) == [f"{bot} (2)", bot]
    assert distinct([bot, bot, f"{bot} (2)"], [True, False, False]) == [
        f"{bot} (3)",
        bot,
        f"{bot} (2)",
    ]
    assert distinct([bot, "Zoé"], [True, False]) == [bot, "Zoé"]


def test_empty_names_take_the_fallback_and_are_told_apart() -> None:
    assert distinct(["\u200b", "\u3164", "Zoé"], [False] * 3) == ["?", "? (2)", "Zoé"]
    assert distinct([""], [False], fallback="Joueur") == ["Joueur"]


def test_names_shortened_alike_are_told_apart_at_that_length() -> None:
    a, b = "Alexandra Tremblay-Gagnon", "Alexandra Tremblay-Côté"
    shown = distinct([a, b], [False, False], limit=12)
    assert shown == ["Alexandra T…", "Alexand… (2)"]
    assert in_text(shown[1], 12) == FSI + "Alexand… (2)" + PDI  # already short: unchanged


def test_every_issue_name_is_inert_in_text_and_fenceless_in_code() -> None:
    for name in ISSUE_NAMES:
        assert_inert(in_text(name))
        assert_inert(in_text(name, 10))
        assert "`" not in in_code(name, 8)
        assert display_width(in_code(name, 8)) <= 8
    shown = distinct(ISSUE_NAMES, [False] * len(ISSUE_NAMES))
    assert len({s.casefold() for s in shown}) == len(ISSUE_NAMES)


# -- every kind of character ---------------------------------------------------------------------

#: Every Unicode category, surrogates and private use included.
any_text = st.text(st.characters(codec=None, categories=None), max_size=40)
#: What breaks messages: markdown, fences, mentions, links, right-to-left, combining marks,
#: controls, invisible characters.
pieces = st.sampled_from(
    [
        "`",
        FENCE,
        "*",
        "**",
        "_",
        "__",
        "~~",
        "||",
        "\\",
        "[",
        "]",
        "(",
        ")",
        "](x)",
        "[x](https://a.b)",
        "https://e.x/a_b",
        "://",
        ":://",  # found by the property test below: an escaped colon read away joined the other
        "> ",
        ">>> ",
        "# ",
        "-# ",
        "- ",
        "1. ",
        "+ ",
        "@",
        "@everyone",
        "@here",
        "<@1>",
        "<@&1>",
        "<#1>",
        "<:e:1>",
        "<t:1:R>",
        "</nines:1>",
        "نادية",
        "\u05e9\u05dc\u05d5\u05dd",
        "王小明",
        "e\u0301",
        "\u0301",
        "\u0336" * 7,
        "\u200b",
        "\u200d",
        "\u200c",
        "\u2068",
        "\u2069",
        "\u202e",
        "\u200f",
        "\x00",
        "\x1b",
        "\n",
        "\t",
        "\u2028",
        "\u3164",
        "\ufe0f",
        "👨\u200d👩\u200d👧",
        "🇫🇷",
        " ",
        "Alex",
        "ALEX",
        "Zoé",
        "x",
    ]
)
hostile = st.lists(pieces | st.text(max_size=3), max_size=12).map("".join)
a_name = any_text | hostile


@settings(max_examples=400, deadline=None)
@given(a_name, st.none() | st.integers(1, 40))
def test_in_text_is_always_inert_and_isolated(name: str, limit: int | None) -> None:
    shown = in_text(name, limit)
    assert_inert(shown)
    if limit is not None:
        assert display_width(seen(shown[1:-1])) <= limit
        assert seen(shown[1:-1]) == shorten(clean(name), limit)  # nothing lost but the cut


@settings(max_examples=400, deadline=None)
@given(a_name, st.none() | st.integers(1, 40), st.booleans())
def test_in_code_never_holds_a_backtick_or_a_control(
    name: str, width: int | None, isolate: bool
) -> None:
    shown = in_code(name, width, isolate=isolate)
    assert "`" not in shown
    inner = shown[1:-1] if isolate else shown
    assert all(
        unicodedata.category(c) not in ("Cc", "Cs", "Co", "Zl", "Zp")
        and (unicodedata.category(c) != "Cf" or c in "\u200c\u200d" or c >= "\U000e0000")
        for c in inner
    ), repr(shown)
    if width is not None:
        assert display_width(shown) <= width


@settings(max_examples=300, deadline=None)
@given(a_name)
def test_clean_is_idempotent_and_trimmed(name: str) -> None:
    once = clean(name)
    assert clean(once) == once
    assert once == once.strip() and "  " not in once
    assert unicodedata.is_normalized("NFC", once)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(a_name | st.sampled_from(["Alex", "alex", "Alex (2)", ""]), st.booleans()),
        max_size=8,
    ),
    st.none() | st.integers(6, 20),
)
def test_distinct_names_are_pairwise_different_stable_and_prefix_stable(
    seats: list[tuple[str, bool]], limit: int | None
) -> None:
    raw = [n for n, _ in seats]
    computers = [c for _, c in seats]
    shown = distinct(raw, computers, limit=limit)
    keys = [unicodedata.normalize("NFKC", s).casefold() for s in shown]
    assert len(set(keys)) == len(shown)
    assert distinct(raw, computers, limit=limit) == shown  # the same seats, the same names
    assert all(s and clean(s) == s for s in shown)
    if limit is not None:
        assert all(display_width(s) <= limit for s in shown)
        assert all(shorten(s, limit) == s for s in shown)  # in_text(name, limit) cuts nothing
    # people seated later never rename the people before them
    people = [n for n, c in seats if not c]
    told = distinct(people, [False] * len(people), limit=limit)
    for k in range(len(people)):
        assert distinct(people[:k], [False] * k, limit=limit) == told[:k]


def test_distinct_needs_a_flag_per_name_and_room_for_a_number() -> None:
    with pytest.raises(ValueError, match="flag"):
        distinct(["a"], [])
    with pytest.raises(ValueError, match="six columns"):
        distinct(["a"], [False], limit=5)
    with pytest.raises(ValueError, match="one column"):
        shorten("abc", 0)


def test_in_plain_text_a_name_is_cleaned_shortened_and_isolated_not_escaped() -> None:
    """Embed footers and author names show markdown as typed: an escape would show."""
    assert in_plain("**Zoé** _x_") == FSI + "**Zoé** _x_" + PDI
    assert in_plain("نادية\u202e\x07", 3) == FSI + "نا…" + PDI


# -- where names are shown today (the history; the table's messages follow with the model) ------


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(a_name, st.booleans()), min_size=1, max_size=6))
def test_every_name_in_the_history_is_inert_isolated_and_told_apart(
    players: list[tuple[str, bool]],
) -> None:
    row = HistoryRow(
        game_id=1,
        kind="nines",
        status="finished",
        rated=True,
        end_reason=None,
        ended_at=0.0,
        hands_played=1,
        winners=(0,),
        players=tuple(
            HistoryPlayer(i, f"u:{i}", name, computer, i + 1, i)
            for i, (name, computer) in enumerate(players)
        ),
    )
    embed = history_embed("en", [row], players[0][0])
    description = embed.description or ""
    shown = re.findall(f"{FSI}[^{FSI}{PDI}]*{PDI}", description)
    assert len(shown) == len(players)  # every name isolated, and nothing else
    for piece in shown:
        assert_inert(piece)
        assert display_width(seen(piece[1:-1])) <= HISTORY_NAME_LIMIT
    plain = [seen(p[1:-1]) for p in shown]
    assert len({unicodedata.normalize("NFKC", p).casefold() for p in plain}) == len(plain)
    assert_inert((embed.title or "").removeprefix("Recent games of "))


@pytest.mark.parametrize("module", ["bot.words.names", "cogs.nines.options"])
def test_docstring_examples(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted >= 2 and result.failed == 0
