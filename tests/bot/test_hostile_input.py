"""Issue 7.4: forged, altered and misplaced clicks and commands get a short private answer and
change nothing. custom_ids only name a game; who acts is always the interaction's user."""

from __future__ import annotations

import random
import string
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app import NinesBot
from bot.storage import player_key
from cogs.nines import ids
from fakecord import FakeDiscord
from fakecord.interactions import APPLICATION_COMMAND, MESSAGE_COMPONENT, Interaction
from fakecord.models import Message, User
from fakecord.permissions import Perm
from testbed.games import finish, open_game, raw_click, text_of
from testbed.people import enabled_moves, open_hand, table_message, whose_turn

from .conftest import StartBot


async def state(nines: NinesBot, game_id: int) -> tuple[Any, ...]:
    row = await nines.storage.game(game_id)
    assert row is not None
    actions = await nines.storage.actions(game_id)
    seats = await nines.storage.seats(game_id)
    return row.status, len(actions), [(s.user_id, s.away, s.timeouts) for s in seats]


def forged_ids(game_id: int, n: int, rng: random.Random) -> list[str]:
    """Hundreds of custom_ids a modified client could send: malformed, altered, out of range,
    other games, other kinds, injections, long and unicode."""
    good = [
        f"nines:1:play:{game_id}:{n}:9H",
        f"nines:1:xchg:{game_id}:{n}:swap",
        f"nines:1:joker:{game_id}:{n}:win",
        f"nines:1:hand:{game_id}",
        f"nines:1:back:{game_id}",
        f"nines:1:lobby:{game_id}:start",
        f"nines:1:rematch:{game_id}",
        "nines:1:forget:1",
    ]
    out = [
        "",
        "nines",
        "nines:",
        "nines:1:",
        "nines:2:play:1:0:9H",
        "NINES:1:hand:1",
        f"nines:1:play:{game_id}:{n}:JK",  # a Joker in a game without one
        f"nines:1:play:{game_id}:{n}:1H",
        f"nines:1:play:{game_id}:{n}:9X",
        f"nines:1:play:{game_id}:-1:9H",
        f"nines:1:play:{game_id}:99999999:9H",
        f"nines:1:play:0:{n}:9H",
        f"nines:1:play:{'9' * 19}:{n}:9H",
        f"nines:1:play:{game_id + 1000}:{n}:9H",
        f"nines:1:xchg:{game_id}:{n}:maybe",
        f"nines:1:joker:{game_id}:{n}:draw",
        f"nines:1:lobby:{game_id}:cpu-impossible",
        f"nines:1:lobby:{game_id}:join'; DROP TABLE games;--",
        f"nines:1:hand:{game_id}\n",
        f"nines:1:hand:{game_id} ",
        f" nines:1:hand:{game_id}",
        f"nines:1:hand:{game_id}:extra",
        "nines:1:forget:0",
        "nines:1:forget:" + "9" * 21,
        "x" * 100,
        "é" * 50,
        "nines:1:play:1:0:9♥",
        "nines:1:play:１:0:9H",  # a full-width digit
    ]
    for template in good:
        parts = template.split(":")
        for _ in range(25):
            mutated = list(parts)
            i = rng.randrange(len(mutated))
            choice = rng.randrange(5)
            if choice == 0:
                mutated[i] = "".join(rng.choices(string.printable, k=rng.randrange(0, 8)))
            elif choice == 1:
                del mutated[i]
            elif choice == 2:
                mutated.insert(i, str(rng.randrange(10**6)))
            elif choice == 3:
                mutated[i] = mutated[i].upper()
            else:
                mutated[i] = str(rng.choice([0, -1, 10**20, game_id + 1, n + 1, n - 1]))
            out.append(":".join(mutated)[:100])
    return out


async def test_hundreds_of_forged_custom_ids_change_nothing(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    nines = await start_bot()
    alice, bob, eve = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("eve")
    game_id = await open_game(fake, alice, people=(bob,), computers=("easy",), start=3)
    turn = whose_turn(fake, [alice, bob], fake.channel)
    assert turn is not None
    waiting = bob if turn is alice else alice
    table = table_message(fake, alice, fake.channel)
    assert table is not None
    session = nines.sessions.get(game_id)
    assert session is not None
    before = await state(nines, game_id)
    rng = random.Random(4)
    custom_ids = forged_ids(game_id, session.n, rng)
    assert len(custom_ids) >= 200
    clicks = []
    # Sent in batches, by the person not on turn and by a stranger.
    for i in range(0, len(custom_ids), 40):
        batch = custom_ids[i : i + 40]
        for j, custom_id in enumerate(batch):
            who = eve if j % 2 else waiting
            clicks.append(await raw_click(fake, who, table, custom_id, wait=False))
        await fake.settle()
    assert await state(nines, game_id) == before
    for click in clicks:
        assert click.acknowledged, (click.payload["data"]["custom_id"], click)
        assert not click.errors, click.errors
        # Never a public change: a private answer (at once, or after a deferral while the
        # game was busy), never an edit of the table.
        cid = click.payload["data"]["custom_id"]
        assert click.ack_type in (4, 6), cid
        answers = ([click.response] if click.ack_type == 4 else []) + click.followups
        assert answers and all(m.ephemeral_for == click.user.id for m in answers), cid
    assert not table.deleted and table_message(fake, alice, fake.channel) is table


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(custom_id=st.text(max_size=100))
def test_any_text_is_parsed_strictly(custom_id: str) -> None:
    """Whatever a custom_id is, it is ours only if one template matches it in full."""
    parsed = [t.parse(custom_id) for t in ids.ALL]
    matched = [p for p in parsed if p is not None]
    assert len(matched) <= 1
    if matched:
        assert custom_id.startswith(ids.PREFIX) and custom_id.isascii()
        for value in matched[0].values():
            assert value and ":" not in value


async def test_another_seat_another_player_and_strangers_are_refused(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    nines = await start_bot()
    alice, bob, eve = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("eve")
    game_id = await open_game(fake, alice, people=(bob,), computers=("easy",), start=3)
    turn = whose_turn(fake, [alice, bob], fake.channel)
    assert turn is not None
    other = bob if turn is alice else alice
    hand = await open_hand(fake, turn, fake.channel)
    move = next(b.custom_id for b in hand.buttons() if b.custom_id and not b.disabled)
    assert move is not None
    before = await state(nines, game_id)
    # The other player replays the on-turn player's move (their hand is not theirs to see,
    # so the id is sent on the public table): told it is not their turn.
    table = table_message(fake, alice, fake.channel)
    assert table is not None
    res = await raw_click(fake, other, table, move)
    assert res.ephemeral and "not your turn" in text_of(res.message).lower(), text_of(res.message)
    # A stranger: not in this game.
    res = await raw_click(fake, eve, table, move)
    assert res.ephemeral and "not playing" in text_of(res.message)
    # Someone else's ephemeral hand cannot even be clicked in Discord; the same id on the
    # public table by a stranger changes nothing either (above).
    assert await state(nines, game_id) == before
    # The on-turn player's own move still works.
    res = await fake.click(turn, hand, move)
    assert not res.errors and res.ephemeral


async def test_buttons_of_a_finished_or_unknown_game(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    nines = await start_bot()
    alice = fake.add_user("alice")
    game_id = await open_game(fake, alice, computers=("easy", "easy"), start=3)
    hand = await open_hand(fake, alice, fake.channel)
    await finish(fake, [alice], fake.channel)
    for custom_id in [b.custom_id for b in hand.buttons() if b.custom_id][:3]:
        res = await raw_click(fake, alice, hand, custom_id)
        assert res.acknowledged and not res.errors
        assert "game is over: its result is in the end message" in text_of(res.message), text_of(
            res.message
        )
    res = await raw_click(fake, alice, hand, "nines:1:hand:424242")
    assert "I do not know that game" in text_of(res.message)
    row = await nines.storage.game(game_id)
    assert row is not None and row.status == "finished"


async def test_slash_commands_in_a_dm_and_where_the_bot_cannot_post(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    nines = await start_bot()
    alice = fake.add_user("alice")
    # A channel where the bot may not post: /nines start answers privately, opens nothing.
    closed = fake.add_channel(name="closed")
    fake.set_permissions(closed, fake.bot, deny=Perm.SEND_MESSAGES)
    await fake.settle()
    res = await fake.slash(alice, closed, "nines start")
    assert res.ephemeral and "cannot post" in text_of(res.message)
    assert len(nines.sessions) == 0
    # A DM: Discord would not offer a guild-only command there, but a forged one is answered.
    sent = await dm_command(fake, alice, "start")
    assert sent.acknowledged and sent.ephemeral, sent
    assert "server channel" in text_of(sent.message)
    assert len(nines.sessions) == 0
    for name in ("hand", "stop", "leaderboard"):
        sent = await dm_command(fake, alice, name)
        assert sent.acknowledged and sent.ephemeral and not sent.errors


async def dm_command(fake: FakeDiscord, user: User, sub: str) -> Any:
    """/nines <sub> as if sent from a DM: no guild, a DM channel, the user not a member."""
    command = fake.commands.find(fake.guild.id, "nines")
    assert command is not None
    data = {
        "id": command["id"],
        "name": "nines",
        "type": 1,
        "options": [{"type": 1, "name": sub, "options": []}],
    }
    gateway = fake.gateway
    real_dispatch = gateway.dispatch

    async def as_dm(event: str, payload: dict[str, Any]) -> None:
        if event == "INTERACTION_CREATE":
            for key in ("guild_id", "guild", "member", "guild_locale"):
                payload.pop(key, None)
            payload["user"] = user.to_json()
            payload["channel"] = {"id": str(fake.channel.id + 1), "type": 1}
            payload["channel_id"] = str(fake.channel.id + 1)
            payload["context"] = 1
        await real_dispatch(event, payload)

    gateway.dispatch = as_dm  # type: ignore[method-assign]
    try:
        return await fake._interact(
            APPLICATION_COMMAND, user, fake.channel, data, wait=True, name=f"nines {sub}"
        )
    finally:
        gateway.dispatch = real_dispatch  # type: ignore[method-assign]


async def raw_select(
    fake: FakeDiscord, user: User, message: Message, custom_id: str, values: list[str]
) -> Interaction:
    """A string select menu's interaction (component type 3) with any custom_id on
    ``message``: what a modified client can send where the message has only buttons."""
    channel = fake.store.channel(message.channel_id)
    data = {"custom_id": custom_id, "component_type": 3, "values": values}
    return await fake._interact(MESSAGE_COMPONENT, user, channel, data, wait=True, source=message)


def answered_privately(res: Interaction, user: User) -> str:
    """The answer is a new private message to ``user`` (never an edit of the clicked one)."""
    assert res.acknowledged and not res.errors, res.errors
    assert res.ack_type == 4, res.ack_type
    assert res.response is not None and res.response.ephemeral_for == user.id
    return text_of(res.response)


async def test_a_select_menu_carrying_a_cards_id_is_refused(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    nines = await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    game_id = await open_game(fake, alice, people=(bob,), computers=("easy",), start=3)
    turn = whose_turn(fake, [alice, bob], fake.channel)
    assert turn is not None
    hand = await open_hand(fake, turn, fake.channel)
    move = enabled_moves(hand)[0]
    before = await state(nines, game_id)
    shown = (hand.content, hand.embeds, [b.custom_id for b in hand.buttons()])
    # Sent from the player's own hand, on their turn, with a legal card's id: still a select
    # menu's interaction, which none of our messages has.
    res = await raw_select(fake, turn, hand, move, ["9H"])
    assert "not from a game I know" in answered_privately(res, turn)
    assert await state(nines, game_id) == before
    assert (hand.content, hand.embeds, [b.custom_id for b in hand.buttons()]) == shown
    # The same card, clicked as the button it is, is played.
    played = await fake.click(turn, hand, move)
    assert not played.errors
    assert (await state(nines, game_id))[1] > before[1]


async def test_a_forged_forget_me_on_the_players_own_hand_changes_nothing(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    nines = await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    forget_alice = ids.ForgetClick(alice.id).custom_id
    game_id = await open_game(fake, alice, people=(bob,), computers=("easy",), start=3)
    hand = await open_hand(fake, alice, fake.channel)
    shown = (hand.content, hand.embeds, [b.custom_id for b in hand.buttons()])
    before = await state(nines, game_id)
    # Seated in the game: once it edited the hand into "finish your game first", no buttons.
    res = await raw_click(fake, alice, hand, forget_alice)
    assert "not from a game I know" in answered_privately(res, alice)
    assert (hand.content, hand.embeds, [b.custom_id for b in hand.buttons()]) == shown
    assert await state(nines, game_id) == before
    # After the game (a rated one): the old hand's forged confirmation forgets nothing.
    await finish(fake, [alice, bob], fake.channel)
    key = player_key(alice.id, None)
    stats = await nines.storage.stats(fake.guild.id, "nines", key)
    assert stats is not None
    old = (hand.content, hand.embeds, [b.custom_id for b in hand.buttons()])
    res = await raw_click(fake, alice, hand, forget_alice)
    assert "not from a game I know" in answered_privately(res, alice)
    assert (hand.content, hand.embeds, [b.custom_id for b in hand.buttons()]) == old
    assert await nines.storage.stats(fake.guild.id, "nines", key) == stats
    # The real confirmation still works.
    ask = await fake.slash(alice, fake.channel, "nines forget-me")
    assert ask.message is not None
    done = await fake.click(alice, ask.message, "Yes, forget me")
    assert not done.errors and done.ack_type == 7
    assert await nines.storage.stats(fake.guild.id, "nines", key) is None


def _unused(_m: Message) -> None:  # keep the import for type readers
    return None
