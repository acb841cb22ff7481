"""What a refused Activity client is told, in the person's language (bot/locales)."""

from __future__ import annotations

from typing import Final

from engine import (
    GameIsOver,
    IllegalAction,
    JokerNeedsCall,
    MustFollowSuit,
    NotInHand,
    NotYourTurn,
    WrongPhase,
)

from ..i18n import suit_name, tr
from ..session import SessionError

#: A session's refusal (its i18n key) as the protocol's error code (ACTIVITY.md).
SESSION_CODES: Final = {
    "error.not_live": "not-your-turn",
    "error.not_seated": "not-seated",
    "error.away": "not-your-turn",
    "error.stale": "stale",
    "error.not_your_turn": "not-your-turn",
    "error.illegal": "illegal",
}


def engine_refusal(lang: str, error: Exception) -> str:
    """An engine refusal in the reader's language. The same words as the chat's
    (``cogs/nines/render.error_text``, which bot/ may not import: at merge, one of the two
    should call the other from bot/)."""
    if isinstance(error, MustFollowSuit):
        return tr(lang, "error.follow_suit", suit=suit_name(lang, error.suit))
    if isinstance(error, NotYourTurn):
        return tr(lang, "error.not_your_turn")
    if isinstance(error, GameIsOver):
        return tr(lang, "error.game_over")
    if isinstance(error, JokerNeedsCall):
        return tr(lang, "error.joker_call")
    if isinstance(error, NotInHand):
        return tr(lang, "error.not_in_hand")
    if isinstance(error, WrongPhase):
        over = "exchange is over" in str(error)
        return tr(lang, "error.exchange_over" if over else "error.exchange_first")
    if isinstance(error, IllegalAction) and "win" in str(error):
        return tr(lang, "error.call_only_joker")
    return tr(lang, "error.illegal_generic", detail=str(error))


def session_refusal(lang: str, error: SessionError) -> tuple[str, str]:
    """(code, message) for a session's refusal of an action."""
    code = SESSION_CODES.get(error.key, "illegal")
    if error.key == "error.illegal":
        refused = error.params.get("error")
        if isinstance(refused, Exception):
            return code, engine_refusal(lang, refused)
    return code, tr(lang, error.key, **error.params)


def refusal(lang: str, code: str) -> str:
    """The words of a refusal that comes from no session (authentication, a bad frame)."""
    key = {
        "auth": "activity.error.auth",
        "not-in-instance": "activity.error.not_in_instance",
        "wrong-channel": "activity.error.wrong_channel",
        "no-game": "activity.error.no_game",
        "not-seated": "error.not_seated",
        "bad-request": "activity.error.bad_request",
    }.get(code, "error.unexpected")
    return tr(lang, key)
