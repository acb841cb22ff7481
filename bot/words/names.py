"""People's names as every message shows them (issue 39).

Discord display names are free text: markdown, code fences, mentions, right-to-left scripts,
invisible characters, the same name twice. Two steps, each done in one place:

- ``distinct``: once per game, the names to show, cleaned and told apart (``Alex``,
  ``Alex (2)``); the table model carries these.
- ``in_text`` / ``in_code`` / ``in_plain``: where a name meets a medium (markdown, a code
  block, plain text such as an embed's footer), escaped for it.

The stored name stays the raw display name (``stored`` only bounds its length); cleaning
happens at display, so a better cleaning later applies to every past game too.

Text is cut only between grapheme clusters (what a reader sees as one character: a letter with
its accents, an emoji with its skin tone or a family joined by ZWJ), as Unicode's UAX #29 defines
them; the ``regex`` package implements those rules (``\\X``), the standard library does not.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from typing import Final

import regex
from discord.utils import escape_markdown, escape_mentions

#: Bidirectional isolation (Unicode's UAX #9, FSI ... PDI): a right-to-left name cannot reorder
#: the text around it, and the text around it cannot reorder the name.
FSI: Final = "\u2068"
PDI: Final = "\u2069"
ELLIPSIS: Final = "…"
#: What stands for a backtick inside a code block, where a backtick could close the block:
#: U+02CB MODIFIER LETTER GRAVE ACCENT, the look-alike a monospace font draws one column wide.
BACKTICK_LOOKALIKE: Final = "\u02cb"
#: Inert after "@" or "<": Discord parses no mention, channel, emoji or timestamp across it
#: (discord.utils.escape_mentions uses the same character).
ZWSP: Final = "\u200b"
#: Discord keeps up to 32 characters of a display name; a seat stores no more.
STORED_LENGTH: Final = 32
#: Combining marks kept on one base character: room for the stacked vowels and tone marks that
#: scripts write (two or three in Vietnamese, Thai or pointed Hebrew), not for "Zalgo" text,
#: whose dozens of marks draw over the lines above and below.
MAX_MARKS: Final = 4

_GRAPHEME: Final = regex.compile(r"\X")
#: Characters that draw nothing though their category says "letter" or "symbol": the Hangul
#: fillers and the blank Braille pattern, which people use for names that look empty.
_BLANKS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: Marks that attach nothing (default-ignorable): the combining grapheme joiner, Khmer's
#: inherent vowels.
_IGNORABLE_MARKS: Final = frozenset("\u034f\u17b4\u17b5")
_JOINERS: Final = "\u200c\u200d"  # ZWNJ, ZWJ: Persian, Indic scripts and emoji sequences need them
_BLACK_FLAG: Final = "\U0001f3f4"  # with tag characters: the flags of England, Scotland, Wales
_TAGS: Final = re.compile("[\U000e0000-\U000e007f]+")
_CANCEL_TAG: Final = "\U000e007f"
_SPACES: Final = re.compile(r" {2,}")
#: A joiner joins two characters: one at either end, beside a space or beside another joiner
#: joins nothing (the last one of a run is kept).
_J: Final = f"[{_JOINERS}]+"
_STRAY_JOINERS: Final = re.compile(f"^{_J}|{_J}$|(?<= ){_J}|{_J}(?= )|{_J}(?=[{_JOINERS}])")


def _is_mark(c: str) -> bool:
    return unicodedata.category(c) in ("Mn", "Me")


def _keep_tags(match: re.Match[str]) -> str:
    """Tag characters only as an emoji flag's (🏴 + tags + cancel tag); anywhere else they are
    invisible text that can hide words."""
    before = match.string[: match.start()]
    whole = before.endswith(_BLACK_FLAG) and match.group().endswith(_CANCEL_TAG)
    return match.group() if whole else ""


def _char(c: str) -> str:
    """One character as a name keeps it: a space for any space or line break, nothing for
    what draws nothing (controls, format characters, private use, lone surrogates,
    noncharacters)."""
    if c.isspace() or c in _BLANKS or unicodedata.category(c) in ("Zs", "Zl", "Zp"):
        return " "
    if c in _JOINERS or c in _IGNORABLE_MARKS:
        return c if c in _JOINERS else ""
    if "\U000e0000" <= c <= "\U000e007f":
        return c  # tag characters: judged with their neighbours, see _keep_tags
    category = unicodedata.category(c)
    if category in ("Cc", "Cf", "Co", "Cs"):
        return ""
    if "\ufdd0" <= c <= "\ufdef" or (ord(c) & 0xFFFE) == 0xFFFE:  # noncharacters
        return ""
    # Unassigned (Cn) characters stay: a newer emoji than this Python's Unicode tables is one.
    return c


def _cap_marks(cluster: str) -> str:
    """A grapheme cluster with at most MAX_MARKS combining marks."""
    marks = 0
    out = []
    for c in cluster:
        if _is_mark(c):
            marks += 1
            if marks > MAX_MARKS:
                continue
        out.append(c)
    return "".join(out)


# Cached: a game's handful of names is cleaned for every message drawn (thousands a game), and
# cleaning walks each character through Unicode's tables.
@functools.lru_cache(maxsize=4096)
def clean(name: str, fallback: str = "") -> str:
    """``name`` without what no client should draw, in NFC, spaces collapsed to one.

    Dropped: control and format characters (categories Cc, Cf: bidirectional controls,
    zero-width spaces, soft hyphens...), private use (Co), lone surrogates (Cs), noncharacters,
    invisible fillers; line and paragraph separators and every kind of space become one space.
    Kept: combining marks with their base (at most MAX_MARKS on one; a mark with no base before
    it is dropped), ZWJ and ZWNJ between two characters (emoji sequences, Persian, Indic
    scripts), an emoji flag's tag characters. A name with nothing left is ``fallback``.

    >>> clean(" Zo\\u0065\\u0301\\u200b\\n  Côté\\u202e "), clean("\\u3164\\u200b", "?")
    ('Zoé Côté', '?')
    """
    text = "".join(_char(c) for c in unicodedata.normalize("NFC", name))
    text = _TAGS.sub(_keep_tags, text)
    while True:  # each pass only removes; one removal can strand another character
        tidied = _tidy(text)
        if tidied == text:
            return text or fallback
        text = tidied


def _tidy(text: str) -> str:
    """One pass of ``clean`` over characters already kept: joiners that join nothing, spaces,
    marks beyond MAX_MARKS, what has no base at the start; NFC."""
    text = _STRAY_JOINERS.sub("", text)
    text = _SPACES.sub(" ", text).strip(" ")
    clusters = [_cap_marks(g) for g in _GRAPHEME.findall(text)]
    # A mark or joiner with no base would attach to the text before the name.
    while clusters and (_is_mark(clusters[0][0]) or clusters[0][0] in _JOINERS + " "):
        del clusters[0]
    return unicodedata.normalize("NFC", "".join(clusters))


def stored(name: str) -> str:
    """A display name as a seat stores it: raw (cleaning happens at display), at most
    STORED_LENGTH characters, never cut inside a grapheme cluster."""
    out = ""
    for g in _GRAPHEME.findall(name):
        if len(out) + len(g) > STORED_LENGTH:
            break
        out += g
    return out


# -- widths and shortening ---------------------------------------------------------------------


def _cluster_width(cluster: str) -> int:
    """Columns one grapheme cluster takes in a monospace font: two for East Asian wide and
    fullwidth characters and for emoji shown as pictures (a variation selector 16, a pair of
    regional indicators), none for marks and format characters alone, else one."""
    if "\ufe0f" in cluster or any(unicodedata.east_asian_width(c) in "WF" for c in cluster):
        return 2
    if len(cluster) > 1 and all("\U0001f1e6" <= c <= "\U0001f1ff" for c in cluster):
        return 2  # a flag: two regional indicators
    if all(_is_mark(c) or unicodedata.category(c) in ("Cf", "Cc") for c in cluster):
        return 0
    return 1


@functools.lru_cache(maxsize=4096)
def display_width(text: str) -> int:
    """Columns ``text`` takes in a monospace block (a code block's font): East Asian wide and
    fullwidth characters and emoji take two, combining marks and format characters (FSI, PDI,
    ZWSP) none.

    >>> display_width("王小明"), display_width("Zoé"), display_width("e\\u0301"), display_width("⁨a⁩")
    (6, 3, 1, 1)
    """
    return sum(_cluster_width(g) for g in _GRAPHEME.findall(text))


def shorten(name: str, limit: int) -> str:
    """``name`` if it fits ``limit`` columns, else its longest start that fits with an
    ellipsis after it, cut between grapheme clusters (an accent stays on its letter, a
    family emoji stays whole) and without a trailing space."""
    if limit < 1:
        raise ValueError("a name needs at least one column")
    if display_width(name) <= limit:
        return name
    out, used = [], 0
    for g in _GRAPHEME.findall(name):
        w = _cluster_width(g)
        if used + w + display_width(ELLIPSIS) > limit:
            break
        out.append(g)
        used += w
    return "".join(out).rstrip(" ") + ELLIPSIS


# -- told apart --------------------------------------------------------------------------------


def _key(name: str) -> str:
    """What two names are compared by: compatibility forms and case folded, so ``ALEX``,
    ``alex`` and the fullwidth ``Ａｌｅｘ`` are the same name to a reader."""
    return unicodedata.normalize("NFKC", name).casefold()


def distinct(
    names: Sequence[str],
    computers: Sequence[bool],
    *,
    fallback: str = "?",
    limit: int | None = None,
) -> list[str]:
    """The names to show for a table's seats (in seat order), cleaned, each different from
    every other compared without case (``_key``); a computer's never equal to a person's.

    The rule: the people first, in seat order, then the computers, in seat order; each takes
    its cleaned name if no seat before it in that order took the same, else the first of
    ``name (2)``, ``name (3)``... that nobody took. So the same seats always give the same
    names (the lobby, the table, the hands, the sheet, the ranking, the record), a person
    joining later never renames an earlier one, and a computer is the one renamed when it
    shares a person's name. An empty name (nothing drawable) is ``fallback``, numbered like
    any other. With ``limit``, every name is first shortened to ``limit`` columns (the
    number kept whole), so the names stay apart where they are shown that short.

    >>> distinct(["Alex", "alex", "Bot"], [False, False, True])
    ['Alex', 'alex (2)', 'Bot']
    >>> distinct(["Bot", "Bot"], [True, False])
    ['Bot (2)', 'Bot']
    """
    if len(names) != len(computers):
        raise ValueError("one computer flag for every name")
    if limit is not None and limit < 6:
        raise ValueError("names told apart need at least six columns: 'A… (2)'")
    shown: list[str] = [""] * len(names)
    taken: set[str] = set()
    order = [i for i in range(len(names)) if not computers[i]]
    order += [i for i in range(len(names)) if computers[i]]
    for i in order:
        base = clean(names[i], fallback)
        candidate = base if limit is None else shorten(base, limit)
        n = 1
        while _key(candidate) in taken:
            n += 1
            suffix = f" ({n})"
            room = None if limit is None else limit - display_width(suffix)
            candidate = (base if room is None else shorten(base, room)) + suffix
        taken.add(_key(candidate))
        shown[i] = candidate
    return shown


# -- in a medium -------------------------------------------------------------------------------

#: discord.utils.escape_markdown, not as_needed: as_needed escapes only a first ``**`` (its
#: own docs warn of "clever syntax abuse"), and a name cannot know the text around it. It
#: escapes ``* _ ~ | ` \`` anywhere (so every backtick of a code fence or span), and at a
#: line's start ``>``/``>>>`` quotes, ``#`` headers, ``-`` bullets and ``-#`` subtext.
#: What it leaves as markdown (checked against discord.py 2.7):
#: - the text inside a masked link ``[**x**](url)``: it escapes the ``[`` and consumes the
#:   rest unescaped, so the brackets are escaped here: they stand aside as private-use
#:   characters (which ``clean`` leaves in no name) while it escapes the rest;
#: - at the start of a line: an ordered list's ``1.``, a ``+`` bullet, and a ``>`` with no
#:   space after it (the text after the name may bring the space that makes it a quote);
#: - a bare URL, which Discord makes a link: ``\\:`` breaks its ``scheme://``; every colon of
#:   a run before ``//``, so that no colon stands beside the slashes once escapes are read
#:   (``:://``).
_COLONS_BEFORE_SLASHES: Final = re.compile(r":+(?=//)")
_ORDERED_LIST: Final = re.compile(r"^(\d+)\.")
_LINE_START: Final = re.compile(r"^([>+])")
_BRACKETS_ASIDE: Final = str.maketrans({"[": "\ue000", "]": "\ue001"})
_BRACKETS_BACK: Final = str.maketrans({"\ue000": "\\[", "\ue001": "\\]"})


def _escape(text: str) -> str:
    """``text`` as literal markdown: every character Discord's markdown reads as syntax is
    escaped with a backslash (Discord's escape rule: a backslash before any ASCII punctuation
    shows that character as it is)."""
    # ignore_links=False: a URL in a name is text, its ``_`` and ``*`` escaped too.
    out = escape_markdown(text.translate(_BRACKETS_ASIDE), ignore_links=False)
    out = out.translate(_BRACKETS_BACK)
    out = _ORDERED_LIST.sub(r"\1\\.", out)
    out = _LINE_START.sub(r"\\\1", out)
    return _COLONS_BEFORE_SLASHES.sub(lambda colons: "\\:" * len(colons.group()), out)


def _inert_mentions(text: str) -> str:
    """No mention Discord could parse: ``escape_mentions`` for ``@everyone``, ``@here`` and
    ids, then a zero-width space after every ``@`` (``@Everyone``, ``@&role``) and every ``<``
    (``<@1>``, ``<#1>``, ``<:e:1>``, ``<t:1>``, ``</cmd:1>``), which escape_mentions leaves.
    The bot's allowed_mentions already pings nobody from a name: this keeps the text from even
    looking like a mention."""
    text = escape_mentions(text)
    return re.sub(f"([@<])(?!{ZWSP})", rf"\1{ZWSP}", text)


@functools.lru_cache(maxsize=4096)
def in_text(name: str, limit: int | None = None) -> str:
    """A name in running markdown text (content, embed description or field): cleaned,
    shortened to ``limit`` columns, markdown escaped, mentions inert, bidi-isolated.

    >>> in_text("**Zoé** <@1>") == "\\u2068" + r"\\*\\*Zoé\\*\\* <\u200b@\u200b1>" + "\\u2069"
    True
    """
    text = clean(name)
    if limit is not None:
        text = shorten(text, limit)
    return FSI + _inert_mentions(_escape(text)) + PDI


def in_plain(name: str, limit: int | None = None) -> str:
    """A name where Discord parses no markdown and no mention, so an escape would show as a
    backslash: an embed's footer or author name. Cleaned, shortened to ``limit`` columns,
    bidi-isolated. (A thread's or a file's name wants ``shorten(clean(name), n)`` alone.)"""
    text = clean(name)
    if limit is not None:
        text = shorten(text, limit)
    return FSI + text + PDI


def in_code(name: str, width: int | None = None, *, isolate: bool = False) -> str:
    """A name inside a code block or code span (the score sheet): cleaned, no backtick (a
    look-alike instead, so nothing can open or close the block), clipped to ``width`` columns
    with an ellipsis. Nothing else is markup in a code block.

    With ``isolate``, wrapped in FSI ... PDI so a right-to-left name cannot reorder the
    numbers beside it on its line; FSI and PDI take no column in ``display_width`` (measure
    with this module's, which counts them as none).
    """
    text = clean(name).replace("`", BACKTICK_LOOKALIKE)
    if width is not None:
        text = shorten(text, width)
    return FSI + text + PDI if isolate else text
