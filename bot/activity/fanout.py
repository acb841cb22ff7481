"""The presenter the sessions and the game's extension talk to when the Activity is on: the
chat's presenter, and after each step the Activity's hub too.

``NinesBot.plug_in`` wraps the extension's presenter in it, so every change reaches both
views whoever made it (a chat click, a socket's action, a timer, a restart), without the chat
presenter knowing the Activity exists. It is a ``Presenter`` and nothing more: what only the
chat presenter does (its hands, its notebook) its own extension asks of it directly.

The other way, the chat presenter asks the hub who has the table open (``Hub.at_table``: the
web table tells them their turn, and a game all of whose people are there has its chat table
coalesced, docs/activity.md), and is told here when one of them closes it
(``ChatPresenter.web_table_left``), so what the web table no longer tells them, the chat does.
"""

from __future__ import annotations

from ..game.session import Change, ChatPresenter, GameSession
from .hub import Hub


class FanOut:
    def __init__(self, chat: ChatPresenter, hub: Hub) -> None:
        self.chat = chat
        self.hub = hub
        hub.seat_left = self.seat_left

    def seat_left(self, session: GameSession) -> None:
        """A seated person closed the game's web table (their last socket): the chat
        presenter catches the chat up for them, in the background (the hub's caller is
        closing a socket and must not wait for Discord)."""
        self.hub.background.run(self.chat.web_table_left(session), f"activity-left-{session.id}")

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
