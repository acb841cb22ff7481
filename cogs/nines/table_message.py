"""The table message: the hand in play, edited as the game goes, and each hand's summary,
which the hand's table becomes when the hand ends."""

from __future__ import annotations

from typing import Any

from bot.base import failpoint
from bot.game.session import Change, GameSession
from bot.table import TableModel, table_model, table_models
from bot.words import tr
from engine import HandStarted, TrumpSet

from . import render, ui
from .activity import open_table_button, served
from .delivery import Delivery
from .messages import NO_MENTIONS, GameMessages, nonce
from .render.cards import TEXT, CardStyle


def trumps_on_the_table(change: Change) -> list[TrumpSet]:
    """Nein Nine: the first 8s that set trump in this change, of the round now on the table."""
    trumps: list[TrumpSet] = []
    for event in change.events:
        if isinstance(event, HandStarted):
            trumps.clear()  # only the round now on the table
        elif isinstance(event, TrumpSet):  # the first 8 of the round sets trump
            trumps.append(event)
    return trumps


class TableMessage:
    """The game's standing table and its hands' summaries, in its channel."""

    def __init__(self, messages: GameMessages) -> None:
        self.messages = messages

    @staticmethod
    def shown_tricks(delivery: Delivery, hand_number: int) -> int | None:
        """How many of the hand's completed tricks the table showed at its last edit; None
        when not drawn since this process started (the last trick only, as after a restart)."""
        drawn = delivery.tricks_shown
        return None if drawn is None else drawn[1] if drawn[0] == hand_number else 0

    def table_message(
        self,
        session: GameSession,
        model: TableModel,
        delivery: Delivery,
        notes: list[str],
        style: CardStyle = TEXT,
    ) -> dict[str, Any]:
        lang = session.language
        shown = self.shown_tricks(delivery, model.hand_number)
        return {
            # No content: the table names whose turn it is in its embed, and the turn message
            # (turn_pings.py) alone mentions them; an edit clears what an older table said.
            "content": None,
            "embed": render.table_embed(lang, model, notes=notes, shown_tricks=shown, style=style),
            "view": ui.table_view(
                lang,
                model,
                open_table=open_table_button(served(self.messages.bot), lang, session.id),
            ),
            "allowed_mentions": NO_MENTIONS,
        }

    def notes(self, session: GameSession, model: TableModel, change: Change) -> list[str]:
        return render.change_notes(
            session.language,
            model,
            timed_out=change.timed_out,
            restored=change.restored,
            trumps=trumps_on_the_table(change),
        )

    async def show(self, session: GameSession, change: Change) -> bool:
        """Bring the channel's summaries and table up to the game's stored state; True when
        the game is over (its end message is owed, not a table).

        What the channel owes follows from the stored moves; the game's delivery marks
        (``Delivery``, stored, see migration 0004) say how far it was told. Each step is safe
        to repeat: an edit is idempotent, and a post carries a nonce Discord enforces, so a post
        repeated after a crash returns the message it made the first time. A restart therefore
        just calls this again and finishes whatever a dead process left owed, exactly once.
        """
        messages = self.messages
        game = session.game
        assert game is not None
        lang = session.language
        delivery = await messages.loaded(session)
        style = await messages.card_style(session)
        changed = False
        ended = sum(1 for hand in game.hands_log if hand.result is not None)
        public: TableModel | None = None  # the sheet of every hand ended so far
        for number in range(delivery.shown_hands + 1, ended + 1):
            hand = game.hands_log[number - 1]
            assert hand.result is not None
            # The game's last hand leaves the sheet to the end message: it is shown once.
            last = game.over and number == ended
            public = public or table_models.table(session, None)
            tricks = [table_model.trick_of(t, game.players) for t in hand.tricks]
            embed = render.hand_summary(
                lang, public, hand.result, tricks, sheet=not last, style=style
            )
            if delivery.table_hand == number and delivery.table_message_id is not None:
                # The hand's table becomes its summary: the channel reads hand by hand.
                await messages.edit(
                    session,
                    delivery.table_message_id,
                    by=delivery.table_by,
                    content=None,
                    embed=embed,
                    view=None,
                )
            else:
                await messages.post(session, embed=embed, nonce=nonce(session, f"s{number}"))
            failpoint("summary_shown")
            delivery.shown_hands = number
            changed = True
        if game.over:
            if changed:
                await messages.save(session, delivery)
            return True
        shown = self.shown_tricks(delivery, game.hand_number)
        model = table_models.table(session, None, shown_tricks=shown)
        notes = self.notes(session, model, change)
        # As drawn now: other clicks may play on while the edit is on its way.
        drawn = (model.hand_number, sum(s.tricks_won for s in model.seats))
        before = delivery.table_message_id
        new_hand = delivery.table_hand != model.hand_number or before is None
        watched = self.watched_only(session, delivery)
        same_trick = (drawn, model.phase) == (delivery.tricks_shown, delivery.phase_shown)
        if watched and same_trick and not new_hand and not notes:
            # Coalesced: shown at the trick's end. ``tricks_shown`` stays, so that edit lists
            # every trick completed since this one was drawn.
            delivery.table_behind = True
            if changed:
                await messages.save(session, delivery)
            return False
        if watched:
            notes = [*notes, tr(lang, "note.web_table")]
        # All the message is made of (``table_message``): the same, it reads the same. The
        # model as its stamp (all it was built from; kept instead of a model a game at rest).
        stamp = table_models.stamp_of(session, game)
        drawing = (before, stamp, shown, notes, style, served(self.messages.bot))
        if not new_hand and drawing == delivery.table_drawn and self.edits_in_place(delivery):
            # Drawn already: the game moved on before an earlier change's edit was made (the
            # edits of a game wait for each other, each drawing the game as it is then), and
            # that edit showed this change too. Sent again, it would change nothing.
            delivery.table_behind = False
            if changed:
                await messages.save(session, delivery)
            return False
        message = self.table_message(session, model, delivery, notes, style)
        if new_hand:
            once = nonce(session, f"t{model.hand_number}")
            # On the channel route, with its nonce: a crash before its id is stored cannot
            # leave a second table. The next card's click moves it onto a token (renew_table).
            delivery.table_message_id = (await messages.post(session, nonce=once, **message)).id
            delivery.table_by = None
            failpoint("table_posted")
            delivery.table_hand = model.hand_number
        else:
            delivery.table_message_id = await self.renew_table(session, delivery, message)
        delivery.tricks_shown, delivery.phase_shown = drawn, model.phase
        delivery.table_behind = False
        delivery.table_drawn = (delivery.table_message_id, *drawing[1:])
        if changed or delivery.table_message_id != before:  # most edits keep the id
            await messages.save(session, delivery)
        return False

    def watched_only(self, session: GameSession, delivery: Delivery) -> bool:
        """Whether the table is edited once a trick (coalesced) rather than at each change:
        when no token of the game lives, and every person seated has the web table open.

        Why: the game is then played at the web table, which shows each card as it is
        played; the chat table is read by watchers only, and each of its edits would go on
        the channel route, under Discord's global limit (50 requests a second for the whole
        bot, every route but an interaction's: https://discord.com/developers/docs/topics/
        rate-limits#global-rate-limit), one per card of every such game. A watcher in chat
        reads the game trick by trick: each edit lists the tricks completed since the last
        (``shown_tricks``), so no card goes unseen, and the table says it catches up each
        trick (``note.web_table``). Every hand's end (its summary, the next hand's table), the
        game's end, a time-out, a restart and a trump set are shown when they happen. A
        token living again (a chat click) brings back an edit per change, through it; and a
        person closing the web table (``DiscordPresenter.web_table_left``) brings the chat
        table up to date at once, the game then being played from chat."""
        by = delivery.table_by
        if (by is not None and by.alive) or delivery.live_click() is not None:
            return False  # edits through a token cost nothing on the global limit
        return self.messages.played_at_web_table(session)

    @staticmethod
    def edits_in_place(delivery: Delivery) -> bool:
        """Whether ``renew_table`` would edit the standing table (not move it onto a fresh
        click's follow-up, which a redrawing of the same table still does)."""
        by = delivery.table_by
        return (by is not None and by.alive) or delivery.live_click() is None

    async def renew_table(
        self, session: GameSession, delivery: Delivery, message: dict[str, Any]
    ) -> int:
        """The standing table brought up to date: edited through the token that made it while
        that lives; else replaced by a follow-up of the game's freshest click (so later edits
        are off the global limit too, and the table is the channel's newest message again,
        which on a phone is where one looks); else edited on the channel route. Returns its
        id."""
        messages = self.messages
        before = delivery.table_message_id
        assert before is not None
        by = delivery.table_by
        if by is None or not by.alive:
            click = delivery.live_click()
            new = None if click is None else await messages.follow_up(session, click, **message)
            if new is not None:
                delivery.table_message_id, delivery.table_by = new, click
                # Stored at once (a follow-up has no nonce): a crash before this leaves a
                # second, stale table standing (its button still opens the current hand);
                # the restarted game edits the stored one.
                await messages.save(session, delivery)
                await messages.delete(session, before, by=by)
                return new
        return await messages.edit(session, before, by=by, **message)
