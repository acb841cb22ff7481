"""fakecord: a faithful Discord double (REST + gateway on 127.0.0.1) for the bot's tests."""

from .clock import FakeClock
from .errors import DiscordError, UsageRefused
from .interactions import ErrorRecord, Interaction
from .models import Attachment, Button, Channel, Guild, Message, Role, User
from .permissions import Perm
from .server import FakeDiscord, RequestRecord, Violation

__all__ = [
    "Attachment",
    "Button",
    "Channel",
    "DiscordError",
    "ErrorRecord",
    "FakeClock",
    "FakeDiscord",
    "Guild",
    "Interaction",
    "Message",
    "Perm",
    "RequestRecord",
    "Role",
    "UsageRefused",
    "User",
    "Violation",
]
