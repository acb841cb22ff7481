"""custom_ids of every component: namespaced, versioned, carrying ids only (never trust).

>>> PLAY.format(game=42, n=7, card="9H")
'nines:1:play:42:7:9H'
>>> PLAY.parse('nines:1:play:42:7:9H')
{'game': '42', 'n': '7', 'card': '9H'}
>>> PLAY.parse('nines:1:play:42:7:9X') is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

PREFIX: Final = "nines:1:"
_GAME = r"(?P<game>[1-9][0-9]{0,17})"
_N = r"(?P<n>0|[1-9][0-9]{0,6})"


@dataclass(frozen=True, slots=True)
class IdTemplate:
    """One kind of custom_id: its regex (for discord.py's DynamicItem) and its format."""

    pattern: str
    text: str

    def format(self, **fields: object) -> str:
        return self.text.format(**fields)

    def parse(self, custom_id: str) -> dict[str, str] | None:
        match = re.fullmatch(self.pattern, custom_id)
        return match.groupdict() if match else None


LOBBY: Final = IdTemplate(
    rf"nines:1:lobby:{_GAME}:(?P<verb>join|leave|start|cancel|cpu-(?:easy|normal|hard)|uncpu)",
    "nines:1:lobby:{game}:{verb}",
)
HAND: Final = IdTemplate(rf"nines:1:hand:{_GAME}", "nines:1:hand:{game}")
PLAY: Final = IdTemplate(
    rf"nines:1:play:{_GAME}:{_N}:(?P<card>[2-9TJQKA][SHDC]|JK)", "nines:1:play:{game}:{n}:{card}"
)
EXCHANGE: Final = IdTemplate(
    rf"nines:1:xchg:{_GAME}:{_N}:(?P<choice>keep|swap)", "nines:1:xchg:{game}:{n}:{choice}"
)
JOKER: Final = IdTemplate(
    rf"nines:1:joker:{_GAME}:{_N}:(?P<call>win|lose)", "nines:1:joker:{game}:{n}:{call}"
)
BACK: Final = IdTemplate(rf"nines:1:back:{_GAME}", "nines:1:back:{game}")
REMATCH: Final = IdTemplate(rf"nines:1:rematch:{_GAME}", "nines:1:rematch:{game}")
FORGET: Final = IdTemplate(r"nines:1:forget:(?P<user>[1-9][0-9]{0,19})", "nines:1:forget:{user}")

ALL: Final = (LOBBY, HAND, PLAY, EXCHANGE, JOKER, BACK, REMATCH, FORGET)


def is_ours(custom_id: str) -> bool:
    """Whether a custom_id is one this bot's components handle."""
    return any(t.parse(custom_id) is not None for t in ALL)
