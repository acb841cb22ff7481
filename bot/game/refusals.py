"""A refused action in the reader's words: the chat's private reply (cogs/nines/replies.py)
and the Activity's error frame (bot/activity/words.py) say the same thing."""

from __future__ import annotations

import engine

from ..words import suit_name, tr
from .values import SessionError

#: The engine's refusals that need no detail, by their i18n key.
PLAIN: tuple[tuple[type[engine.NinesError], str], ...] = (
    (engine.NotYourTurn, "error.not_your_turn"),
    (engine.GameIsOver, "error.game_over"),
    (engine.JokerNeedsCall, "error.joker_call"),
    (engine.NotInHand, "error.not_in_hand"),
)


def engine_refusal(lang: str, error: Exception) -> str:
    """An engine refusal (its text is English, for logs) in the reader's language."""
    if isinstance(error, engine.MustFollowSuit):
        return tr(lang, "error.follow_suit", suit=suit_name(lang, error.suit))
    for kind, key in PLAIN:
        if isinstance(error, kind):
            return tr(lang, key)
    if isinstance(error, engine.WrongPhase):
        over = "exchange is over" in str(error)
        return tr(lang, "error.exchange_over" if over else "error.exchange_first")
    if isinstance(error, engine.IllegalAction) and "win" in str(error):
        return tr(lang, "error.call_only_joker")
    if isinstance(error, engine.NinesError):
        return tr(lang, "error.illegal_generic", detail=str(error))
    return tr(lang, "error.unexpected")


def session_refusal(lang: str, error: SessionError) -> str:
    """A session's refusal in the reader's words (an illegal move: the engine's reason)."""
    refused = error.params.get("error")
    if error.key == "error.illegal" and isinstance(refused, Exception):
        return engine_refusal(lang, refused)
    return tr(lang, error.key, **error.params)
