"""The routes of Discord's HTTP API the double serves, a module a concern. Importing this package
registers every one of them in `ROUTES` (fakecord/rest.py)."""

from .. import app_emojis
from ..rest import ROUTES
from . import activities, channels, commands, guilds, identity, interactions, messages

__all__ = [
    "ROUTES",
    "activities",
    "app_emojis",
    "channels",
    "commands",
    "guilds",
    "identity",
    "interactions",
    "messages",
]
