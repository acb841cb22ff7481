"""An interaction as the double tracks it; also what `slash()` and `click()` hand back."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from .models import Channel, Guild, Message, User

ACK_DEADLINE = 3.0  # seconds to answer the callback
TOKEN_LIFETIME = 15 * 60.0  # seconds the interaction token works for follow-ups and edits

APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
LAUNCH_ACTIVITY = 12


@dataclass(frozen=True)
class ErrorRecord:
    """A Discord error the double gave the bot while it handled this interaction."""

    method: str
    route: str
    status: int
    code: int
    message: str


@dataclass(eq=False)
class Interaction:
    id: int
    token: str
    type: int
    user: User
    channel: Channel
    guild: Guild
    created_at: float
    payload: dict[str, Any]
    command_name: str | None = None
    source_message: Message | None = None  # the message a clicked button sits on
    ack_type: int | None = None
    acked_at: float | None = None
    response: Message | None = None  # the original response (or the updated message)
    followups: list[Message] = field(default_factory=list)
    errors: list[ErrorRecord] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None  # an autocomplete's answer
    activity_instance_id: str | None = None  # the Activity a LAUNCH_ACTIVITY answer opened
    answered: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def acknowledged(self) -> bool:
        return self.ack_type is not None

    @property
    def deferred(self) -> bool:
        return self.ack_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE)

    @property
    def ephemeral(self) -> bool:
        return self.response is not None and self.response.ephemeral_for is not None

    @property
    def failed(self) -> bool:
        """What the person sees as "This interaction failed": no answer in time."""
        return self.ack_type is None

    @property
    def message(self) -> Message | None:
        """The message the person sees as the answer: the response, else the first follow-up."""
        if self.response is not None:
            return self.response
        return self.followups[0] if self.followups else None

    def expired(self, now: float) -> bool:
        return now - self.created_at > TOKEN_LIFETIME

    def too_late_to_ack(self, now: float) -> bool:
        return now - self.created_at > ACK_DEADLINE

    def __repr__(self) -> str:
        return (
            f"<Interaction {self.id} type={self.type} user={self.user.name} "
            f"ack={self.ack_type} errors={[e.code for e in self.errors]}>"
        )
