"""What every room stands on: the settings, discord.py's private side behind one
adapter, network faults and their retries, the metrics, and the crash tests' failpoints."""

from __future__ import annotations

from .discord_internals import HANDLER_TASKS, PRIVATE_ATTRIBUTES, PrebuiltView, PrivateAttribute
from .failpoints import failpoint
from .faults import RETRYABLE, Backoff, describe, sleep_or_stop
from .metrics import ANSWER, DECISION, WRITE, Metrics
from .settings import DISCORD_API_BASE, DISCORD_GATEWAY_URL, Settings, SettingsError

__all__ = [
    "ANSWER",
    "DECISION",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
    "HANDLER_TASKS",
    "PRIVATE_ATTRIBUTES",
    "RETRYABLE",
    "WRITE",
    "Backoff",
    "Metrics",
    "PrebuiltView",
    "PrivateAttribute",
    "Settings",
    "SettingsError",
    "describe",
    "failpoint",
    "sleep_or_stop",
]
