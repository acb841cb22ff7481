"""French and English at one table: each person reads their own language in private, the channel
reads the server's; Discord's command localisation carries the French names."""

from __future__ import annotations

from bot.words import card_label
from engine import Card
from fakecord import FakeDiscord
from fakecord.models import Channel, Message, User
from testbed.games import wait_for
from testbed.reading import as_read

from .conftest import StartBot


def embed_text(message: Message) -> str:
    parts = [message.content or ""]
    for e in message.embeds:
        parts += [str(e.get("title", "")), str(e.get("description", ""))]
        parts += [f"{f['name']} {f['value']}" for f in e.get("fields", [])]
    return as_read("\n".join(parts))


async def table(fake: FakeDiscord, user: User, channel: Channel, label: str) -> Message:
    """The table message, once posted (computers may still be thinking when settle() returns
    on a busy machine)."""

    def posted() -> Message | None:
        for message in reversed(fake.visible(user, channel)):
            if (
                message.ephemeral_for is None
                and message.embeds  # the table, not a turn message that also has the button
                and any(b.label == label for b in message.buttons())
            ):
                return message
        return None

    found: Message = await wait_for(fake, posted, what="the table message")
    return found


def card_buttons(hand: Message) -> list[tuple[str, Card]]:
    return [
        (b.label, Card.parse(b.custom_id.rsplit(":", 1)[1]))
        for b in hand.buttons()
        if ":play:" in b.custom_id
    ]


async def test_a_french_and_an_english_player_at_a_french_server(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    fake.guild.preferred_locale = "fr"  # no language setting: the server's preferred locale
    bot = await start_bot()
    marie = fake.add_user("marie", locale="fr")
    john = fake.add_user("john", locale="en-US")
    res = await fake.slash(john, fake.channel, "nines start")
    assert res.message is not None and not res.ephemeral
    lobby = res.message
    assert "Le Neuf\xa0: une table est ouverte" in embed_text(lobby)  # public: the server's French
    await fake.click(marie, lobby, "Rejoindre")
    await fake.click(john, lobby, "+ 🤖 Facile")
    await fake.click(john, lobby, "Commencer")
    await fake.settle()
    draw = fake.store.message_by_id(lobby.id).content or ""
    assert draw.startswith("Tirage du premier brasseur")

    public = await table(fake, john, fake.channel, "Ma main")
    text = embed_text(public)
    assert "Le Neuf · Manche 1" in text and "Atout\xa0: ♥ Cœur" in text and "Brasseur\xa0:" in text

    session = bot.sessions.in_channel(fake.channel.id)
    assert session is not None and session.game is not None
    # Each opens their hand from the same French table and reads their own language.
    m_hand = (await fake.click(marie, public, "Ma main")).message
    j_hand = (await fake.click(john, public, "Ma main")).message
    assert m_hand is not None and j_hand is not None
    assert m_hand.ephemeral_for == marie.id and j_hand.ephemeral_for == john.id
    assert "**Votre main** · Manche 1 · Atout\xa0: ♥ Cœur" in (m_hand.content or "")
    assert "**Your hand** · Hand 1 · Trump: ♥ Hearts" in (j_hand.content or "")
    # One card notation per game, the table's (French: V D R), in every hand; the English
    # reader gets the key to its letters in his words, the French one needs none.
    for hand in (m_hand, j_hand):
        labels = card_buttons(hand)
        assert labels and all(label == card_label(card, "fr") for label, card in labels)
    key = "French letters on the cards: R for king, D for queen and V for jack."
    assert key in (j_hand.content or "")
    assert "French letters" not in (m_hand.content or "")
    assert "sur les cartes" not in (m_hand.content or "")  # "Lettres anglaises sur les cartes"
    # Each hand's controls in its reader's words: Keep and Swap when deciding, and Refresh
    # where a row has room for it beside them (issue 46).
    french = {"↻ Actualiser", "Garder ma main", "Échanger"}
    english = {"↻ Refresh", "Keep my hand", "Swap"}
    for shown, words in ((m_hand, french), (j_hand, english)):
        own = {b.label for b in shown.buttons() if ":play:" not in b.custom_id}
        assert own and own <= words, own

    # The one not to decide waits, in their own words; the one to decide gets a stale
    # second copy of their hand refused in theirs.
    game = session.game
    turn = game.turn
    assert turn is not None
    first = marie if session.seats[turn].user_id == marie.id else john
    other = john if first is marie else marie
    other_hand = m_hand if other is marie else j_hand
    waiting = "On attend" if other is marie else "Waiting for"
    assert waiting in (other_hand.content or "")
    # Nothing to decide, so Refresh has a row of its own.
    refresh = "↻ Actualiser" if other is marie else "↻ Refresh"
    assert refresh in {b.label for b in other_hand.buttons()}
    copy = (await fake.click(first, public, "Ma main")).message
    hand = m_hand if first is marie else j_hand
    assert copy is not None
    if game.phase == "exchange":
        labels = {b.label for b in hand.buttons()}
        expected = {"Garder ma main", "Échanger"} if first is marie else {"Keep my hand", "Swap"}
        assert expected <= labels
    move = next(
        b.custom_id
        for b in hand.buttons()
        if not b.disabled and (":xchg:" in b.custom_id or ":play:" in b.custom_id)
    )
    done = await fake.click(first, hand, move)
    assert not done.errors
    await fake.settle()
    stale = await fake.click(first, copy, move)
    said = stale.message.content if stale.message else ""
    expected_text = "n'était plus à jour" if first is marie else "was out of date"
    assert expected_text in (said or "")


async def test_an_english_setting_on_a_french_server_and_private_errors(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    fake.guild.preferred_locale = "fr"
    bot = await start_bot()
    await bot.storage.set_guild_settings(fake.guild.id, {"language": "en"})
    marie = fake.add_user("marie", locale="fr")
    res = await fake.slash(marie, fake.channel, "nines start")
    assert res.message is not None
    assert "Nines: a table is open" in embed_text(res.message)  # the setting wins
    refused = await fake.click(marie, res.message, "Join")
    assert refused.ephemeral and "Vous avez déjà une place" in (refused.message.content or "")
    stopped = await fake.slash(marie, fake.channel, "nines stop")
    assert not stopped.ephemeral  # she is the host: the channel is told, in English
    assert stopped.message is not None and "stopped the game" in (stopped.message.content or "")


async def test_command_names_and_descriptions_are_localised_for_discord(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    await start_bot()
    registered = fake.commands.find(fake.guild.id, "nines")
    assert registered is not None
    assert registered["name_localizations"]["fr"] == "neuf"
    assert registered["description_localizations"]["fr"].startswith("Jouer au Neuf")
    subs = {o["name"]: o for o in registered["options"]}
    assert subs["start"]["name_localizations"]["fr"] == "commencer"
    assert subs["forget-me"]["name_localizations"]["fr"] == "oubliez-moi"
    settings = {o["name"]: o for o in subs["settings"]["options"]}
    assert settings["set"]["name_localizations"]["fr"] == "modifier"
    options = {o["name"]: o for o in settings["set"]["options"]}
    assert options["turn_timer"]["name_localizations"]["fr"] == "minuterie"
    ruleset = {o["name"]: o for o in subs["start"]["options"]}["ruleset"]
    choices = {c["value"]: c for c in ruleset["choices"]}
    assert choices["nein-nine"]["name_localizations"]["fr"].startswith("Nein Nine")
    assert choices["classic"]["name_localizations"]["fr"].startswith("Le Neuf\xa0: classique")


async def test_public_answers_to_commands_use_the_servers_language(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    fake.guild.preferred_locale = "fr"
    await start_bot()
    john = fake.add_user("john", locale="en-US")
    board = await fake.slash(john, fake.channel, "nines leaderboard")
    assert not board.ephemeral and board.message is not None
    assert "Classement\xa0: Le Neuf" in embed_text(board.message)
    stats = await fake.slash(john, fake.channel, "nines stats", game="nein-nine")
    assert stats.message is not None and "john · Nein Nine" in embed_text(stats.message)
    history = await fake.slash(john, fake.channel, "nines history")
    assert history.message is not None and "Parties récentes" in embed_text(history.message)
    # Private answers stay in his own language.
    rules = await fake.slash(john, fake.channel, "nines rules")
    assert rules.ephemeral and "the rules in short" in embed_text(rules.message)  # type: ignore[arg-type]
