"""The game sessions: one session per live game (its state, lobby and timer), the registry
of them, a person's move as one use case, the computer players, the daily deals and duplicate
matches, and a refused action in the player's words."""

from __future__ import annotations

from .computer import Computers
from .daily import (
    PERSON_SEAT,
    WEEK_DEALS,
    Daily,
    DailyResult,
    FieldChoice,
    daily_rules,
    day_before,
    day_of,
    deal_seed,
    decisions,
    rank,
    score_try,
    week_of,
)
from .duplicate_match import DuplicateMatches, points_of, score_match
from .moves import Answer, Move, Moves, Reply
from .refusals import engine_refusal, session_refusal
from .session import TIMEOUTS_BEFORE_AWAY, ChatPresenter, Deps, GameSession, Presenter
from .sessions import Sessions
from .state import DEFAULT_TURN_SECONDS, stored_rules
from .values import Change, GameLost, SeatInfo, SessionError

__all__ = [
    "DEFAULT_TURN_SECONDS",
    "PERSON_SEAT",
    "TIMEOUTS_BEFORE_AWAY",
    "WEEK_DEALS",
    "Answer",
    "Change",
    "ChatPresenter",
    "Computers",
    "Daily",
    "DailyResult",
    "Deps",
    "DuplicateMatches",
    "FieldChoice",
    "GameLost",
    "GameSession",
    "Move",
    "Moves",
    "Presenter",
    "Reply",
    "SeatInfo",
    "SessionError",
    "Sessions",
    "daily_rules",
    "day_before",
    "day_of",
    "deal_seed",
    "decisions",
    "engine_refusal",
    "points_of",
    "rank",
    "score_match",
    "score_try",
    "session_refusal",
    "stored_rules",
    "week_of",
]
