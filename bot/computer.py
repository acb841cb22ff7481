"""Computer players for the bot: decisions made off the event loop, always within a budget."""

from __future__ import annotations

import asyncio
import logging
from typing import Final

from engine import Action, SeatView
from engine.players import DIFFICULTIES, make_player
from engine.players.rules_player import rule_action

log = logging.getLogger(__name__)

BUDGET_SECONDS: Final = 1.0


class Computers:
    """Thinks for computer seats. ``decide`` never blocks the loop and always answers."""

    difficulties: Final = DIFFICULTIES

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers

    async def decide(self, view: SeatView, difficulty: str, seed: int) -> Action:
        player = make_player(difficulty, seed)
        try:
            return await asyncio.wait_for(
                asyncio.to_thread(player.choose, view), timeout=BUDGET_SECONDS
            )
        except TimeoutError:
            log.warning("computer %s ran out of time; playing the rule-based move", difficulty)
            return rule_action(view)

    async def close(self) -> None:
        return None
