"""Named places where a test can make the process die, to prove a crash there loses nothing.

``NINES_FAILPOINTS=summary_shown,table_posted@2`` (comma-separated names, each with the how
many-th time it fires, default the first) makes the process kill itself with SIGKILL there:
no cleanup, no flush, as if the machine died at that point. Unset (always, outside tests), a
failpoint is one lookup in an empty dict.
"""

from __future__ import annotations

import logging
import os
import signal

log = logging.getLogger(__name__)


def _armed(text: str) -> dict[str, int]:
    """>>> _armed("a,b@3")
    {'a': 1, 'b': 3}
    """
    armed = {}
    for item in filter(None, text.split(",")):
        name, _, nth = item.partition("@")
        armed[name] = int(nth or 1)
    return armed


_ARMED = _armed(os.environ.get("NINES_FAILPOINTS", ""))


def failpoint(name: str) -> None:
    if name in _ARMED:
        _ARMED[name] -= 1
        if _ARMED[name] == 0:
            log.warning("failpoint %s: killing the process", name)
            os.kill(os.getpid(), signal.SIGKILL)
