"""The score sheet's short codes: one per seat, all different, a few columns wide.

A code stands for a player where a full name does not fit: the sheet's columns and dealer
column, and a long hand's list of tricks; a legend under them spells each one out. They are
part of the table model (``bot/table/table_model.py``) so that every medium names a seat alike.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence

from bot.words import tr

CODE_WIDTH = 3  # a player's column on the score sheet: 3 columns, so 4 players fit a phone


def display_width(text: str) -> int:
    """Columns ``text`` takes in a monospace block: East Asian wide and fullwidth
    characters take two, combining marks none."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def clip(text: str, width: int) -> str:
    """The longest start of ``text`` that fits ``width`` columns."""
    out = ""
    for c in text:
        if display_width(out + c) > width:
            break
        out += c
    return out


def _words(text: str) -> list[str]:
    """The letters and digits of a name, word by word: no emoji, symbol or accent mark
    alone, so nothing in a code can stretch a monospace column."""
    text = unicodedata.normalize("NFC", text)
    kept = "".join(c if unicodedata.category(c)[0] in "LN" else " " for c in text)
    return [w[:1].upper() + w[1:] for w in kept.split()]


def _candidates(name: str) -> list[str | None]:
    """Codes to try for a name, most recognisable first: its first letters ("Ale"), its
    initials ("BN" for "Bot Normal"), first and last letters ("Are")."""
    words = _words(name)
    if not words:
        return []
    first, joined = words[0], "".join(words)
    initials = "".join(w[0] for w in words) if len(words) > 1 else None
    return [
        clip(first, CODE_WIDTH),
        clip(initials, CODE_WIDTH) if initials else None,
        clip(joined[0] + joined[-2:], CODE_WIDTH) if len(joined) > 3 else None,
        clip(joined[0] + words[-1][:2], CODE_WIDTH) if len(words) > 1 else None,
    ]


def _first_difference(a: str, b: str) -> int:
    return next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(b))


def _telling(joined: str, others: Sequence[str]) -> str | None:
    """Two first letters and the first letter where this name differs from all the
    others ("Ale"/"Ala" for "Alexandre"/"Alexandra"), if there is one."""
    at = max((_first_difference(joined, o) for o in others), default=0)
    if at >= len(joined):
        return None
    return clip(joined[:2] + joined[at] if at >= 2 else joined, CODE_WIDTH)


def short_codes(
    lang: str, names: Sequence[str], levels: Sequence[str | None] | None = None
) -> list[str]:
    """One short code per name, all different (case aside), for the score sheet's columns:
    ``Alexandre``/``Alexandra`` become ``Ale``/``Ala`` rather than two ``Ale``. A legend under
    the sheet gives the full names. A name with nothing readable gets a numbered code in
    ``lang`` (``P1``, ``J1``).

    ``levels``: a computer's difficulty for each computer seat, None for a person. A computer
    is named by its level, not its name, so the same computer reads the same from game to game
    (``N1``, the first normal one; ``H1``, ``F1`` for « facile »...), whatever its name and
    whoever sits beside it; people's codes are chosen around them.

    >>> short_codes("en", ["Nora", "🤖 Normal bot", "🤖 Normal bot 2"], [None, "normal", "normal"])
    ['Nor', 'N1', 'N2']
    >>> short_codes("fr", ["🤖 Robot facile", "Zoé"], ["easy", None])
    ['F1', 'Zoé']

    >>> short_codes("en", ["Alexandre", "Alexandra", "bob"])
    ['Ale', 'Ala', 'Bob']
    >>> short_codes("en", ["🤖 Bot Easy", "🤖 Bot Normal", "Élodie Côté"])
    ['BoE', 'BoN', 'Élo']
    >>> short_codes("fr", ["🤖", "Zoé", "zoe"])
    ['J1', 'Zoé', 'Zoe']
    """
    return list(_codes(lang, tuple(names), None if levels is None else tuple(levels)))


# Cached: the table model asks for a game's codes at every message it draws, and the same few
# names come back each time.
@functools.lru_cache(maxsize=1024)
def _codes(
    lang: str, names: tuple[str, ...], levels: tuple[str | None, ...] | None
) -> tuple[str, ...]:
    codes: list[str | None] = [None] * len(names)
    seen: dict[str, int] = {}
    for i, difficulty in enumerate(levels or ()):
        if difficulty is not None:
            seen[difficulty] = seen.get(difficulty, 0) + 1
            # The level's initial in ``lang`` and a count: Easy/Normal/Hard, Facile/Difficile.
            codes[i] = tr(lang, f"difficulty.{difficulty}")[:1] + str(seen[difficulty])
    options = [[] if codes[i] else _candidates(n) for i, n in enumerate(names)]

    def settle(proposed: dict[int, str | None]) -> None:
        """Give each name its proposed code where no other name wants or has it."""
        taken = {c.casefold() for c in codes if c}
        wanted: dict[str, list[int]] = {}
        for i, code in proposed.items():
            if code:
                wanted.setdefault(code.casefold(), []).append(i)
        for key, who in wanted.items():
            if len(who) == 1 and key not in taken:
                codes[who[0]] = proposed[who[0]]

    def open_() -> list[int]:
        return [i for i, c in enumerate(codes) if c is None and options[i]]

    settle({i: options[i][0] for i in open_()})
    joined = {i: "".join(_words(names[i])) for i in open_()}
    settle({i: _telling(joined[i], [joined[j] for j in joined if j != i]) for i in open_()})
    for level in range(1, max((len(o) for o in options), default=0)):
        settle({i: options[i][level] for i in open_()})
    taken = {c.casefold() for c in codes if c}
    numbered = (tr(lang, "sheet.player_code", n=k) for k in range(1, 100))
    spare = (c for c in numbered if c.casefold() not in taken)
    # Nothing readable in a name, or every option taken: a numbered code.
    return tuple(c if c else next(spare) for c in codes)
