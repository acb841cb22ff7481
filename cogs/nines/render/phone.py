"""How long a public line may be: one that wraps at most once on a phone (issue 38, item 4).

The figure: the narrowest phones in common use are 360 dp wide (most Android phones). Discord's
mobile client gives a bot's embed text what is left after the screen's side margins, the avatar
column and the embed's own border and padding: about 360 − 16 − 56 − 24 ≈ 264 dp. At the default
font scale its text (gg sans, 16 sp in chat, a little smaller in embeds) averages 6 to 6.5 dp a
character of ordinary prose, so a visual line holds 40 to 45 characters; word wrapping leaves the
end of most lines short by half a word. Two visual lines of a little over 40 characters: **80**
characters as shown, counted by ``shown_length`` (markdown's ``**`` not shown, a custom emoji or
a timestamp counted by the room it takes).

The score sheet's monospace block must not wrap at all (its columns would break): a code block
takes its own padding from that width and a monospace letter is wider (about 7.8 dp at 13 sp),
so ``SHEET_LINE`` is 32 columns; the sheet's three-letter codes keep four players within it.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

PHONE_LINE = 80  # characters as shown: wraps at most once on a 360-dp phone (see above)
SHEET_LINE = 32  # monospace columns of the score sheet that a 360-dp phone shows unwrapped

#: Markup Discord shows as something else: a custom emoji (<:name:id>, shown about as wide as
#: three letters at Discord's 22-px emoji size in text), a timestamp (<t:…:R>, "in 2 minutes"),
#: a mention (<@id>, a name), and bold or italic markers (not shown).
_EMOJI = re.compile(r"<a?:\w+:\d+>")
_TIMESTAMP = re.compile(r"<t:\d+(?::\w)?>")
_MENTION = re.compile(r"<[@#][!&]?\d+>")
_MARKERS = re.compile(r"\*\*|__|~~")


_NOT_ASCII = re.compile(r"[^\x00-\x7f]")

#: A backslash before punctuation: markdown shows the punctuation alone.
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


def shown_length(line: str) -> int:
    """How many characters ``line`` takes on screen, roughly: markup counted as it shows."""
    if "<" in line:
        line = _EMOJI.sub("xxx", line)
        line = _TIMESTAMP.sub("x" * 14, line)  # "in 59 minutes"
        line = _MENTION.sub("x" * 20, line)  # @ and a longish display name
    if "\\" in line:
        line = _ESCAPED.sub(
            r"\1", line
        )  # a name's markdown escapes (bot/words/names.py): no backslash
    line = _MARKERS.sub("", line)
    if line.isascii():
        return len(line)  # no format character, none wide
    return len(line) + sum(_char_width(c) - 1 for c in _NOT_ASCII.findall(line))


@functools.lru_cache(maxsize=1024)
def _char_width(c: str) -> int:
    """An emoji (🤖) or a wide character takes about two letters' room; a format character
    (the bidi isolates around a name, a zero-width space) none."""
    if unicodedata.category(c) == "Cf":
        return 0
    return 2 if unicodedata.east_asian_width(c) in "WF" else 1


def packed(parts: Iterable[str], *, first: str = "", sep: str = " · ") -> list[str]:
    """``first`` then ``parts`` joined by ``sep``, on as few lines as fit ``PHONE_LINE``: a
    part is never split; a line that cannot hold the next part ends before it."""
    lines: list[str] = []
    line = first
    # A line's length is its parts' and separators' added up, each measured once (a table's
    # lines were measured whole at each part, ~4% of a card's CPU): no markup spans the
    # spaces around a separator. Another separator is measured whole, as the line grows.
    spaced = sep[:1] == " " and sep[-1:] == " "
    gap = shown_length(sep)
    width = 0  # shown_length(line), once it holds a part
    for part in parts:
        if line in ("", first):
            line += part
            width = shown_length(line)
            continue
        size = shown_length(part)
        longer = width + gap + size if spaced else shown_length(line + sep + part)
        if longer > PHONE_LINE:
            lines.append(line)
            line, width = part, size
        else:
            line += sep + part
            width = longer
    return [*lines, line] if line else lines


#: Where a paragraph may break, best first: after a sentence, then after a semicolon or a colon
#: (never at the no-break spaces French puts before them), then after a comma, then between words.
_BREAKS = (
    re.compile(r"(?<=[.!?]) +"),
    re.compile(r"(?<=[;:]) +"),
    re.compile(r"(?<=,) +"),
    re.compile(r" +"),
)


def paragraph_lines(text: str) -> list[str]:
    """A paragraph as lines of at most ``PHONE_LINE`` characters shown: the text flows on, and
    breaks only after a sentence, or after a clause inside one too long for a line (a word
    alone as the last resort). Rules text as the files write it, set for a phone."""
    lines: list[str] = []
    for piece in _pieces(text, 0):
        joined = f"{lines[-1]} {piece}" if lines else piece
        if lines and shown_length(joined) <= PHONE_LINE:
            lines[-1] = joined
        else:
            lines.append(piece)
    return lines


def _pieces(text: str, level: int) -> list[str]:
    """``text`` cut at ``_BREAKS[level]``, and each cut too long for a line cut finer."""
    if shown_length(text) <= PHONE_LINE or level >= len(_BREAKS):
        return [text]
    return [p for part in _BREAKS[level].split(text) for p in _pieces(part, level + 1)]
