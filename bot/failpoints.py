"""Named places where a test can make the process die, to prove a crash there loses nothing.

``NINES_FAILPOINTS=summary_shown`` (comma-separated names) makes the process kill itself
with SIGKILL the first time it reaches ``failpoint("summary_shown")``: no cleanup, no flush,
as if the machine died there. Unset (always, outside tests), a failpoint is one set lookup.
"""

from __future__ import annotations

import logging
import os
import signal
from typing import Final

log = logging.getLogger(__name__)

ARMED: Final = frozenset(filter(None, os.environ.get("NINES_FAILPOINTS", "").split(",")))


def failpoint(name: str) -> None:
    if name in ARMED:
        log.warning("failpoint %s: killing the process", name)
        os.kill(os.getpid(), signal.SIGKILL)
