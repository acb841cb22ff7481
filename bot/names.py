"""People's names as every message shows them (issue 39).

Discord display names are free text: markdown, code fences, mentions, right-to-left scripts,
invisible characters, the same name twice. Two steps, each done in one place:

- ``distinct``: once per game, the names to show, cleaned and told apart (``Alex``,
  ``Alex (2)``); the table model carries these.
- ``in_text`` / ``in_code``: where a name meets a medium, escaped for it.
"""

from __future__ import annotations

from collections.abc import Sequence


def clean(name: str) -> str:
    """``name`` without what no client should draw (controls, invisible characters)."""
    return name.strip()


def distinct(names: Sequence[str], computers: Sequence[bool]) -> list[str]:
    """The names to show for a table's seats, cleaned, each different from every other
    (a computer's never equal to a person's)."""
    return [clean(n) for n in names]


def in_text(name: str, limit: int | None = None) -> str:
    """A name in running markdown text (content, embed description or field)."""
    return name if limit is None or len(name) <= limit else name[: limit - 1] + "…"


def in_code(name: str, width: int | None = None) -> str:
    """A name inside a code block or code span: nothing in it may open or close one."""
    return name if width is None else name[:width]
