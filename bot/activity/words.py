"""What a refused Activity client is told, in the person's language (bot/locales)."""

from __future__ import annotations

from typing import Final

from ..game import session_refusal as session_words
from ..game.session import SessionError
from ..words import tr

#: A session's refusal (its i18n key) as the protocol's error code (docs/activity-protocol.md).
SESSION_CODES: Final = {
    "error.not_live": "not-your-turn",
    "error.not_seated": "not-seated",
    "error.away": "not-your-turn",
    "error.stale": "stale",
    "error.not_your_turn": "not-your-turn",
    "error.illegal": "illegal",
    # An answered key sent again with another action: no page of ours does that.
    "error.key_reused": "bad-request",
}


def session_refusal(lang: str, error: SessionError) -> tuple[str, str]:
    """(code, message) for a session's refusal of an action: the chat's words."""
    return SESSION_CODES.get(error.key, "illegal"), session_words(lang, error)


def refusal(lang: str, code: str) -> str:
    """The words of a refusal that comes from no session (authentication, a bad frame)."""
    key = {
        "auth": "activity.error.auth",
        "not-in-instance": "activity.error.not_in_instance",
        "wrong-channel": "activity.error.wrong_channel",
        "no-game": "activity.error.no_game",
        "not-seated": "error.not_seated",
        "bad-request": "activity.error.bad_request",
        "busy": "activity.error.busy",
    }.get(code, "error.unexpected")
    return tr(lang, key)
