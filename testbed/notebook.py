"""The presenter's notebook of a game (``cogs.nines.delivery.Delivery``), for tests (and
benchmarks) that check which message is the table or the standing turn message."""

from __future__ import annotations

from typing import Any

from bot.activity.fanout import FanOut
from bot.game import GameSession
from cogs.nines.delivery import Delivery


def delivery(session: GameSession) -> Delivery:
    shown = session.deps.presenter
    # With the Activity on, the sessions show through the fan-out: the notebook is its chat's.
    # Not isinstance for the chat's: each bot start loads the extension's modules afresh
    # (discord.py's load_extension), so the presenter's class is not this module's.
    presenter: Any = shown.chat if isinstance(shown, FanOut) else shown
    found: Delivery = presenter.delivery(session)
    return found
