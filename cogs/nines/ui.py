"""Buttons: persistent ``DynamicItem``s parsed from their custom_id, and the rows of them
that messages carry (as Discord's JSON).

discord.py keeps no per-message state for them: any button of any message, from before a
restart too, is routed by its custom_id alone (``cogs.nines._call_dynamic_item``).
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final, cast

import discord

from bot.base import RETRYABLE, describe, discord_internals, metrics
from bot.game.session import GameLost
from bot.storage import FencedOut
from bot.table import LobbyModel, TableModel
from bot.words import card_label as i18n_card_label
from bot.words import tr
from engine import Card, Suit

from . import ids, replies
from .render.cards import TEXT, CardStyle

if TYPE_CHECKING:
    from .controller import Controller

Interaction = discord.Interaction[Any]
log = logging.getLogger(__name__)


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"nines:1:never"):
    """Base of our buttons: the click its custom_id stands for, handed to the controller by the
    extension's router (``cogs.nines._call_dynamic_item``, which passes it in). Each subclass
    (``button_class``) matches one kind's template; discord.py routes only full matches to it."""

    kind: ClassVar[type[ids.Click]]

    def __init__(self, button: discord.ui.Button[Any], click: ids.Click) -> None:
        super().__init__(button)
        self.click = click

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameButton:
        button = cast(discord.ui.Button[Any], item)
        # Parsed once, here where the click arrives: the handlers take the typed click.
        click = cls.kind.from_fields(match.groupdict())
        return cls(discord.ui.Button(custom_id=button.custom_id), click)

    async def answer(self, controller: Controller, interaction: Interaction) -> None:
        """The click, answered by ``controller``; whatever goes wrong, never "This interaction
        failed"."""
        measured = metrics.active
        if measured is not None:
            measured.click(interaction.id)
        try:
            if not is_button_click(interaction):
                # A select menu (or any other component) carrying one of our buttons' ids:
                # a forged request; Discord's own client sends our ids only from buttons.
                words = replies.lang(interaction)
                await replies.private(interaction, tr(words, "error.unknown_button"))
                return
            await controller.on_click(interaction, self.click)
        except (GameLost, FencedOut):
            # Another process holds the game's shard now and answers the click (logged by
            # the session; FencedOut: a presenter's write of the game refused the same way).
            log.info("button %s: the game's shard has another holder", self.custom_id)
        except RETRYABLE as exc:
            # Discord unreachable or failing: one line, not a traceback (bot/base/faults.py).
            log.warning("button %s: %s", self.custom_id, describe(exc))
            with contextlib.suppress(*RETRYABLE):  # the apology may not get through either
                await replies.apologise(interaction)
        except Exception:
            # Never "This interaction failed": log it, apologise privately, keep the game.
            log.exception("button %s failed", self.custom_id)
            await replies.apologise(interaction)
        finally:
            discord_internals.release_interaction(interaction)
            if measured is not None:
                measured.click_done(interaction.id)


def is_button_click(interaction: Interaction) -> bool:
    """Whether the interaction is a button's click: every one of our ids is a button's."""
    data: Any = interaction.data or {}
    return bool(data.get("component_type") == discord.ComponentType.button.value)


def clicked_on_message(interaction: Interaction) -> bool:
    """Whether the clicked message carries the clicked custom_id (a forged request may send
    any id from any message the user can click on)."""
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id")
    message = interaction.message
    if message is None:
        return False
    return any(
        getattr(child, "custom_id", None) == custom_id
        for row in message.components
        for child in getattr(row, "children", ())
    )


def button_class(click: type[ids.Click]) -> type[GameButton]:
    """The button of one kind of click, routed by that kind's template alone."""

    class KindButton(GameButton, template=click.TEMPLATE.pattern):
        kind = click

    KindButton.__name__ = KindButton.__qualname__ = click.__name__.replace("Click", "Button")
    return KindButton


#: Every kind of click's button, for ``bot.add_dynamic_items``.
DYNAMIC_ITEMS: Final = tuple(button_class(kind) for kind in ids.KINDS)


Button = dict[str, Any]  # one button, as Discord's JSON
B = discord.ButtonStyle


def button(
    custom_id: str,
    label: str | None,
    *,
    style: B = B.secondary,
    disabled: bool = False,
    emoji: discord.PartialEmoji | None = None,
) -> Button:
    """One button; ``label`` None for an emoji alone (Discord's docs, Message Components >
    Button: a button has a label, an emoji or both)."""
    assert label is not None or emoji is not None, "a button shows a label or an emoji"
    out: Button = {
        "type": discord.ComponentType.button.value,
        "style": style.value,
        "custom_id": custom_id,
        "disabled": disabled,
    }
    if label is not None:
        out["label"] = label
    if emoji is not None:
        out["emoji"] = emoji.to_dict()
    return out


class Buttons(discord_internals.PrebuiltView):
    """Rows of our buttons, kept as the JSON Discord takes (each row a list of ``button``).

    discord.py's own View builds an item, a component and a future for every button: ~8% of
    the bot's CPU at 200 games, for views that are sent once and dropped. These are never
    tracked: the buttons are routed by their DynamicItem patterns alone (registered once,
    ``bot.add_dynamic_items``), any message's, from before a restart too.
    """

    def __repr__(self) -> str:
        return f"<Buttons {[[b['custom_id'] for b in row] for row in self.rows]}>"


# -- views -------------------------------------------------------------------------------------


def lobby_view(
    lang: str, lobby: LobbyModel, default_level: str = "normal", *, open_table: Button | None = None
) -> Buttons:
    """``open_table``: the Activity's button (cogs.nines.activity.open_table_button), on a row
    of its own, when the bot serves it."""
    g = lobby.game_id
    full = lobby.full
    return Buttons(
        [
            button(ids.LobbyClick(g, "join").custom_id, tr(lang, "button.join"), style=B.primary),
            button(ids.LobbyClick(g, "leave").custom_id, tr(lang, "button.leave")),
            button(
                ids.LobbyClick(g, "start").custom_id,
                tr(lang, "button.start"),
                style=B.success,
                disabled=not full,
            ),
            button(
                ids.LobbyClick(g, "cancel").custom_id, tr(lang, "button.cancel"), style=B.danger
            ),
        ],
        [
            *(
                button(
                    add.custom_id,
                    tr(lang, "button.add_cpu", level=tr(lang, f"difficulty.{add.level}")),
                    # the server's usual level (settings: difficulty) stands out
                    style=B.primary if add.level == default_level else B.secondary,
                    disabled=full,
                )
                for add in (ids.LobbyClick(g, verb) for verb in ids.ADD_COMPUTER)
            ),
            button(
                ids.LobbyClick(g, "uncpu").custom_id,
                tr(lang, "button.remove_cpu"),
                disabled=not any(s.computer for s in lobby.seats),
            ),
        ],
        [open_table] if open_table is not None else [],  # an empty row is not sent
    )


def table_view(lang: str, model: TableModel, *, open_table: Button | None = None) -> Buttons:
    """``open_table``: the Activity's button, after the others, when the bot serves it."""
    g = model.game_id
    row = [button(ids.HandClick(g).custom_id, tr(lang, "button.my_hand"), style=B.primary)]
    if any(s.away for s in model.seats):
        row.append(button(ids.BackClick(g).custom_id, tr(lang, "button.back")))
    if open_table is not None:
        row.append(open_table)
    return Buttons(row)


def end_view(lang: str, model: TableModel) -> Buttons:
    return Buttons(
        [
            button(
                ids.RematchClick(model.game_id).custom_id,
                tr(lang, "button.rematch"),
                style=B.success,
            )
        ]
    )


def forget_view(lang: str, user_id: int) -> Buttons:
    return Buttons(
        [button(ids.ForgetClick(user_id).custom_id, tr(lang, "button.forget"), style=B.danger)]
    )


#: The four-colour deck's button for each suit: the face's own ink (bot/chat/card_faces.py), spades
#: black on the neutral grey; none contradicts its face (issue 46).
FOUR_COLOUR_STYLES: Final = {
    Suit.SPADES: B.secondary,
    Suit.HEARTS: B.danger,
    Suit.DIAMONDS: B.primary,
    Suit.CLUBS: B.success,
}


def card_style(card: Card, four_colour: bool, playable: bool = True) -> B:
    """A card button's colour, the deck's colour of its suit. The two-colour deck: red suits
    red, black suits blurple (Discord's darkest colour that is not grey), the Joker green. The
    four-colour deck: each suit its ink (``FOUR_COLOUR_STYLES``), the Joker grey (green is
    clubs there). On your turn a card you may not play is grey as well as disabled, so the
    playable ones stand out; off turn every card keeps its colour, dimmed."""
    if not playable:
        return B.secondary
    if card.suit is None:
        return B.secondary if four_colour else B.success
    if four_colour:
        return FOUR_COLOUR_STYLES[card.suit]
    return B.danger if card.suit.is_red else B.primary


def card_label(lang: str, card: Card, notation: str, face: bool) -> str | None:
    """A card's button label. Beside a face, none: the face's emoji is named as the card in
    words (``queen_of_hearts_…``, bot/chat/emojis.py), which Discord shows on hover and a screen
    reader says, and a button without a label is narrow enough for rows of four on a phone
    (``ROW_CARDS``). Without a face, the card as text (``D♠``: a screen reader says "D black
    spade suit"). The Joker: its word, beside its 🃏."""
    if card.suit is None:
        return tr(lang, "button.joker")
    return None if face else i18n_card_label(card, notation)


def spoken(button: Button) -> str:
    """What a screen reader says for a button: its emoji's name (the ``alt`` of Discord's
    image for a custom emoji; ``queen_of_hearts_1a2b3c`` read without its hash) and its label.

    >>> spoken({"emoji": {"name": "queen_of_hearts_1a2b3c", "id": "1"}, "custom_id": "x"})
    'queen of hearts'
    >>> spoken({"label": "D♠"}), spoken({"label": "Joker", "emoji": {"name": "🃏"}})
    ('D♠', '🃏 Joker')
    """
    emoji = button.get("emoji")
    said = []
    if emoji is not None:
        name = str(emoji["name"])
        said.append(" ".join(name.split("_")[:-1]) if emoji.get("id") else name)
    if button.get("label"):
        said.append(str(button["label"]))
    return " ".join(said)


#: Discord's limits: 5 rows of at most 5 buttons (Discord's docs, Message Components > Action
#: Rows). The hand keeps its last row for its controls.
ROWS: Final = 5
#: A row's width on a 360 dp phone, estimated. Discord promises no button size
#: (discord-api-docs issue 8351: "We don't promise specific button sizes"), so these are its
#: client's button as drawn today: 16 dp of padding each side, a 22 dp emoji and 4 dp to its
#: label, ~8 dp a character, 60 dp at least, 8 dp between buttons; a 360 dp phone leaves a
#: message 272 dp (360 less 16 dp of margin, the 40 dp avatar and its 16 dp gap, 16 dp at the
#: right). A face alone is 60 dp (22 + 32, raised to the least), as is a text card (``D♠``);
#: four take 4 x 60 + 3 x 8 = 264 dp, five 332 dp: a row holds four cards (``ROW_CARDS``).
PHONE_ROW_DP: Final = 272
PAD_DP, EMOJI_DP, CHAR_DP, LEAST_DP, GAP_DP = 16, 22, 8, 60, 8
ROW_CARDS: Final = 4


def row_width(row: Sequence[Button]) -> int:
    """A row of buttons' estimated width in dp on a phone (``PHONE_ROW_DP``'s estimate)."""
    widths = []
    for b in row:
        label = len(b.get("label", ""))
        emoji = EMOJI_DP if "emoji" in b else 0
        width = 2 * PAD_DP + emoji + CHAR_DP * label + (4 if emoji and label else 0)
        widths.append(max(LEAST_DP, width))
    return sum(widths) + GAP_DP * (len(row) - 1)


def card_rows(cards: Sequence[Card], buttons: Sequence[Button], most: int) -> list[list[Button]]:
    """The card buttons in rows: a row per suit (a long suit over two), the Joker (a wider
    button: 🃏 and its word) in a row of two cards at most, else a row of its own; when that
    takes more than ``most`` rows, rows of ``ROW_CARDS`` in hand order.

    >>> from engine import Card, Suit
    >>> hand = [Card.parse(c) for c in "AS KS 2H 3H 4H 5H 6H 9C JK".split()]
    >>> [[b for b in row] for row in card_rows(hand, [c.code for c in hand], 4)]
    [['AS', 'KS'], ['2H', '3H', '4H', '5H'], ['6H'], ['9C', 'JK']]
    """
    suited: list[list[Button]] = []
    jokers: list[Button] = []
    last = None
    for card, b in zip(cards, buttons, strict=True):
        if card.suit is None:
            jokers.append(b)
            continue
        if card.suit is not last or len(suited[-1]) == ROW_CARDS:
            suited.append([])
        suited[-1].append(b)
        last = card.suit
    for joker in jokers:
        room = next((row for row in reversed(suited) if len(row) < ROW_CARDS - 1), None)
        if room is None:
            suited.append([joker])
        else:
            room.append(joker)
    if len(suited) <= most:
        return suited
    return [list(buttons[i : i + ROW_CARDS]) for i in range(0, len(buttons), ROW_CARDS)]


def hand_view(
    lang: str, model: TableModel, *, joker_prompt: bool = False, style: CardStyle = TEXT
) -> Buttons:
    """The private hand: cards in the hand's order, a row per suit where the suits fit
    (``card_rows``), the legal ones enabled on your turn, each with its face when ``style`` has
    faces (an application emoji from the start-up sync: Discord refuses a button's custom
    emoji the application does not have); Keep/Swap during the exchange; Win/Lose after the
    Joker; Refresh always, on a row of its own when there is room."""
    hand = model.hand
    assert hand is not None, "a watcher's model has no hand to show"
    if hand.text_cards:  # the person's own preference: text cards (issue 46), the deck's colours
        style = CardStyle(TEXT.faces, style.four_colour)
    g, n = model.game_id, model.n
    # The game's notation, whatever the reader's language: a card reads the same way on the
    # table, in the summaries and in this hand (PRODUCT.md).
    notation = model.notation
    choosing = bool(hand.playable) and not joker_prompt  # a card to play, now
    cards = []
    for card in hand.cards:
        emoji = style.button_emoji(card, notation)
        cards.append(
            button(
                ids.PlayClick(g, n, card).custom_id,
                card_label(lang, card, notation, emoji is not None),
                style=card_style(
                    card, style.four_colour, playable=card in hand.playable or not choosing
                ),
                disabled=not choosing or card not in hand.playable,
                emoji=emoji,
            )
        )
    # The decision the hand waits for, each choice a primary button: Keep/Swap, Win/Lose.
    choices: list[tuple[ids.Click, str]] = []
    if hand.legal and model.phase == "exchange":
        choices += [
            (ids.ExchangeClick(g, n, False), "keep"),
            (ids.ExchangeClick(g, n, True), "swap"),
        ]
    if joker_prompt:
        choices += [
            (ids.JokerClick(g, n, True), "joker_win"),
            (ids.JokerClick(g, n, False), "joker_lose"),
        ]
    controls = [
        button(click.custom_id, tr(lang, f"button.{choice}"), style=B.primary)
        for click, choice in choices
    ]
    refresh = button(ids.HandClick(g).custom_id, tr(lang, "button.refresh"))
    rows = card_rows(hand.cards, cards, ROWS - 1)
    if not controls:
        return Buttons(*rows, [refresh])
    if len(rows) < ROWS - 1:  # the choices on a row of their own, so that none wraps
        return Buttons(*rows, controls, [refresh])
    if row_width([*controls, refresh]) <= PHONE_ROW_DP:
        return Buttons(*rows, [*controls, refresh])
    # No room for Refresh beside the choices: the table's "My hand" gives a fresh hand too.
    return Buttons(*rows, controls)


def turn_view(lang: str, game_id: int) -> Buttons:
    """The turn message's button: opens the clicker's hand (a fresh one once the hand shown
    last is too old for the bot to update)."""
    return Buttons(
        [button(ids.HandClick(game_id).custom_id, tr(lang, "button.my_hand"), style=B.primary)]
    )
