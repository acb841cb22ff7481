"""Text as a person reads it in Discord, for tests that look for a name in a message.

Every name a message shows goes through ``bot/words/names.py``: isolated with FSI ... PDI
(invisible: they only keep a right-to-left name from reordering the line) and its markdown escaped
with backslashes (Discord shows ``\\*`` as ``*``, Message Formatting: "escape markdown"), its ``@``
and ``<`` made inert by a zero-width space after them. A person reads none of these; ``as_read``
drops them, so a test can look for ``Alex **3**`` as it shows.
"""

from __future__ import annotations

import re
from typing import Any, Final

from bot.words import FSI, PDI, ZWSP

_ESCAPED: Final = re.compile(r"\\([!-/:-@\[-`{-~])")  # a backslash before ASCII punctuation


def as_read(text: str) -> str:
    """``text`` without bidi isolates or zero-width spaces, and with markdown escapes
    resolved (``\\*`` -> ``*``)."""
    return _ESCAPED.sub(r"\1", text.replace(FSI, "").replace(PDI, "").replace(ZWSP, ""))


def words(message: Any) -> str:
    """A message (a fakecord ``Message``, or a list of embeds, or one embed as Discord's JSON)
    as a person reads it: its content, then each embed's title, description, fields (name
    and value), footer; through ``as_read``."""
    if isinstance(message, dict):
        embeds, content = [message], ""
    elif isinstance(message, list):
        embeds, content = message, ""
    else:
        embeds, content = message.embeds, message.content or ""
    parts = [content]
    for embed in embeds:
        parts += [str(embed.get("title", "")), str(embed.get("description", ""))]
        parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
        parts.append(str(embed.get("footer", {}).get("text", "")))
    return as_read("\n".join(parts))
