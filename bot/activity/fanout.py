"""The presenter the sessions and the game's extension talk to when the Activity is on: the
chat's presenter, and after each step the Activity's hub too.

``NinesBot.plug_in`` wraps the extension's presenter in it, so every change reaches both
views whoever made it (a chat click, a socket's action, a timer, a restart), without the chat
presenter knowing the Activity exists. Calls only the chat presenter has (its hands, its
notebook) go straight through to it.
"""

from __future__ import annotations

from typing import Any

from ..session import Change, GameSession, Presenter
from .hub import Hub


class FanOut:
    def __init__(self, chat: Presenter, hub: Hub) -> None:
        self.chat = chat
        self.hub = hub

    async def show(self, session: GameSession, change: Change) -> None:
        # The sockets' push first: it runs in its own task and waits for no Discord request.
        self.hub.changed(session)
        await self.chat.show(session, change)

    async def lobby_expired(self, session: GameSession) -> None:
        self.hub.changed(session)
        await self.chat.lobby_expired(session)

    async def refresh_lobby(self, session: GameSession) -> None:
        self.hub.changed(session)
        await self.chat.refresh_lobby(session)

    def lobby_changed(self, session: GameSession) -> None:
        self.hub.changed(session)
        self.chat.lobby_changed(session)

    def __getattr__(self, name: str) -> Any:
        # Only reached for what FanOut lacks: the chat presenter's own methods (remember_hand,
        # hand_shown, announced...), which the chat's controller calls on ``bot.presenter``.
        return getattr(self.chat, name)
