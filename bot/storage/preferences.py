"""A person's own preferences, the same in every server (keyed by user id alone)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from .driver import Queries, Tx


class PreferenceQueries(Queries):
    async def set_autoplay(self, user_id: int, on: bool) -> None:
        """Whether the person's forced cards (a single legal card) play themselves."""
        await self._put(
            "player_prefs", "user_id", user_id, autoplay=int(on), updated_at=self._now()
        )

    async def autoplay_users(self, user_ids: Iterable[int]) -> set[int]:
        """Which of these people have autoplay on (off for anyone never asked)."""
        return await self._users_with("autoplay", user_ids)

    async def set_trumps_first(self, user_id: int, on: bool) -> None:
        """Whether the person's hand shows the trump suit's cards first (else suit order)."""
        await self._put(
            "player_prefs", "user_id", user_id, trumps_first=int(on), updated_at=self._now()
        )

    async def trumps_first_users(self, user_ids: Iterable[int]) -> set[int]:
        """Which of these people sort their hand trumps first (off for anyone never asked)."""
        return await self._users_with("trumps_first", user_ids)

    async def set_text_cards(self, user_id: int, on: bool) -> None:
        """Whether the person's hand shows its cards as text (``D♠``) rather than faces."""
        await self._put(
            "player_prefs", "user_id", user_id, text_cards=int(on), updated_at=self._now()
        )

    async def text_cards_users(self, user_ids: Iterable[int]) -> set[int]:
        """Which of these people prefer text cards (faces for anyone never asked)."""
        return await self._users_with("text_cards", user_ids)

    async def _users_with(
        self, switch: Literal["autoplay", "trumps_first", "text_cards"], user_ids: Iterable[int]
    ) -> set[int]:
        """Which of these people have the on/off preference ``switch`` on."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return set()
        marks = ", ".join("?" * len(wanted))

        async def read(tx: Tx) -> set[int]:
            rows = await tx.fetchall(
                f"SELECT user_id FROM player_prefs WHERE {switch} = 1 AND user_id IN ({marks})",
                wanted,
            )
            return {int(row["user_id"]) for row in rows}

        return await self._driver.read(read)
