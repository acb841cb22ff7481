"""The table models of the games' latest changes, each built once and shared by every reader.

One change of a game is read by several media at once: the clicker's private hand, the chat table,
the next player's refreshed hand, each web viewer. Each asks ``table`` here, which builds what one
kind of viewer (a seat, or the watchers) may see once per change (``bot.table.table_model.build``)
and hands the same frozen model to every later reader of it. A seat's model is the watchers' with
the seat's hand (``table_model.with_hand``): the public part is built once for everyone.

A model is served only while everything ``build`` read to make it is unchanged: with each is
kept its stamp (the game object itself, how many actions it holds, and every attribute of the
session and its seats that ``build`` reads), compared with the session's as it is now on every
read. A move, a time-out (the away flag, the deadline), a restore or an undone move (another
``Game``), a lobby change (the seats), the game's end (the status): each changes the stamp, so
a stale model is never served, whichever path made the change.

Few entries are kept, the most recently read (``KEPT``): the readers of one change come within
moments of each other, and a game at rest should cost no memory here: once no model was read for
``QUIET`` seconds (every game waiting on a person), the store empties itself (one loop timer per
process, armed by a build; a read costs nothing more).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Final

from engine import Game

from .table_model import (
    TableModel,
    TableSource,
    build_public,
    match_of,
    tricks_shown_matter,
    with_hand,
)

#: Models kept, across every game: a change's readers (its watchers, up to four seats) come
#: within moments, and at 200 games people play ~40 changes a second, so this keeps the last
#: ~half second's; about 4 KB each.
KEPT: Final = 96

#: Seconds without a read after which the store empties: its models were for changes whose
#: readers have come (~0.5 MB at 200 games, kept at rest for nobody).
QUIET: Final = 1.0

#: What ``build`` read of a session, beyond the key: the game object (a restore, an undone
#: move make another), its actions, the status, the turn's deadline, the language, the host,
#: a duplicate match's earlier games, and each seat's name, person, level, away flag and hand
#: order.
Stamp = tuple[object, ...]
#: (game id, viewer, what of ``shown_tricks`` changes the model): one model each.
Key = tuple[int, int | None, int | None]


def stamp_of(source: TableSource, game: Game) -> Stamp:
    """Everything ``build`` reads of ``source`` that can change while the game lives."""
    return (
        game,
        len(game.log),
        source.status,
        source.deadline,
        source.language,
        source.host_id,
        match_of(source),
        tuple(
            (s.name, s.user_id, s.difficulty, s.away, s.trumps_first, s.text_cards)
            for s in source.seats
        ),
    )


class TableModels:
    """The models built for the latest changes, by (game, viewer, tricks shown)."""

    def __init__(self, kept: int = KEPT, quiet: float = QUIET) -> None:
        self.kept = kept
        self.quiet = quiet
        self._models: OrderedDict[Key, tuple[Stamp, TableModel]] = OrderedDict()
        #: Builds and reuses, for the benchmarks (bench/table_models.py) and the tests.
        self.built = self.reused = 0
        #: The pending check for quiet (set while the store holds models, in a loop), and
        #: ``built + reused`` when it was armed.
        self._sweep: asyncio.TimerHandle | None = None
        self._sweep_loop: asyncio.AbstractEventLoop | None = None
        self._reads = 0

    def table(
        self, source: TableSource, viewer: int | None, *, shown_tricks: int | None = None
    ) -> TableModel:
        """What ``viewer`` may see of the game now: ``build(source, viewer, shown_tricks=...)``,
        built once for the session as it is."""
        game = source.game
        if game is None:
            raise ValueError(f"Game {source.id} has no cards dealt yet: no table model.")
        shown = shown_tricks if tricks_shown_matter(game) else None
        stamp = stamp_of(source, game)
        key = (source.id, viewer, shown)
        kept = self._models.get(key)
        if kept is not None and kept[0] == stamp:
            self._models.move_to_end(key)
            self.reused += 1
            return kept[1]
        if viewer is None:
            model = build_public(source, shown_tricks=shown)
        else:
            model = with_hand(self.table(source, None, shown_tricks=shown), source, viewer)
        self.built += 1
        self._models[key] = (stamp, model)
        self._models.move_to_end(key)
        while len(self._models) > self.kept:
            self._models.popitem(last=False)
        if self._sweep is None or self._sweep_loop is None or self._sweep_loop.is_closed():
            self._arm()
        return model

    def _arm(self) -> None:
        """Check for quiet in ``quiet`` seconds (in a loop only: outside one, as in the
        benchmarks, the store is bounded by ``kept`` alone)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._reads = self.built + self.reused
        self._sweep_loop = loop
        self._sweep = loop.call_later(self.quiet, self._swept)

    def _swept(self) -> None:
        """No read since the check was armed: empty the store; else check again later."""
        self._sweep = None
        if self.built + self.reused == self._reads:
            self._models.clear()
        else:
            self._arm()

    def __len__(self) -> int:
        return len(self._models)


#: The process's one store: every medium reads the same models.
MODELS: Final = TableModels()


def table(
    source: TableSource, viewer: int | None, *, shown_tricks: int | None = None
) -> TableModel:
    """``build(source, viewer, shown_tricks=...)``, built once per change and shared
    (``TableModels.table`` of the process's store)."""
    return MODELS.table(source, viewer, shown_tricks=shown_tricks)
