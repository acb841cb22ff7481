"""What a table shows, to the chat and the web table alike: the table model, built once per
change, and the score sheet's short codes."""

from __future__ import annotations

from .sheet_codes import clip, display_width, short_codes
from .table_model import (
    DuplicateRow,
    DuplicateSheet,
    HandModel,
    LobbyModel,
    PlayedCard,
    RankRow,
    SeatModel,
    TableModel,
    TrickModel,
    TurnModel,
    build,
    build_lobby,
    tiebreak_of,
    trick_of,
)
from .table_models import MODELS, TableModels, table

__all__ = [
    "MODELS",
    "DuplicateRow",
    "DuplicateSheet",
    "HandModel",
    "LobbyModel",
    "PlayedCard",
    "RankRow",
    "SeatModel",
    "TableModel",
    "TableModels",
    "TrickModel",
    "TurnModel",
    "build",
    "build_lobby",
    "clip",
    "display_width",
    "short_codes",
    "table",
    "tiebreak_of",
    "trick_of",
]
