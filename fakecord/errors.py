"""Discord's error answers: JSON `{"code", "message"}` with the HTTP status Discord uses."""

from __future__ import annotations

from typing import Any

# code -> (HTTP status, message), as Discord documents them.
KNOWN: dict[int, tuple[int, str]] = {
    0: (404, "404: Not Found"),
    10003: (404, "Unknown Channel"),
    10004: (404, "Unknown Guild"),
    10007: (404, "Unknown Member"),
    10008: (404, "Unknown Message"),
    10011: (404, "Unknown Role"),
    10013: (404, "Unknown User"),
    10014: (404, "Unknown Emoji"),
    10015: (404, "Unknown Webhook"),
    10062: (404, "Unknown interaction"),
    10063: (404, "Unknown application command"),
    30008: (400, "Maximum number of emojis reached (2000)"),
    40060: (400, "Interaction has already been acknowledged"),
    50001: (403, "Missing Access"),
    50005: (403, "Cannot edit a message authored by another user"),
    50013: (403, "Missing Permissions"),
    50024: (400, "Cannot execute action on this channel type"),
    50027: (401, "Invalid Webhook Token"),
    50035: (400, "Invalid Form Body"),
    50083: (400, "Thread is archived"),
    50109: (400, "The request body contains invalid JSON."),
    # serenity-rs/serenity#2993: a bulk overwrite of the commands without the app's Entry
    # Point command (kept by Discord once Activities are on).
    50240: (
        400,
        "You cannot remove this app's Entry Point command in a bulk update operation. Please "
        "include the Entry Point command in your update request or delete it separately.",
    ),
    40001: (401, "Unauthorized"),
}


class DiscordError(Exception):
    """Raised inside a handler; the server turns it into Discord's JSON error answer."""

    def __init__(
        self, code: int, *, errors: dict[str, Any] | None = None, detail: str = ""
    ) -> None:
        self.status, self.message = KNOWN[code]
        self.code = code
        self.errors = errors
        self.detail = detail
        super().__init__(f"{code} {self.message}{': ' + detail if detail else ''}")

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            out["errors"] = self.errors
        return out


class UsageRefused(Exception):
    """What a person's Discord client would not let them do (click a disabled button, ...)."""


def invalid_form(field: str, code: str, message: str) -> DiscordError:
    """50035 Invalid Form Body with Discord's `errors` tree for one field."""
    return DiscordError(50035, errors={field: {"_errors": [{"code": code, "message": message}]}})
