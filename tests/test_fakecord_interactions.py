"""The double's interactions: slash commands, buttons, acknowledgement rules, ephemerals."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord.http import Route

from fakecord import FakeDiscord, Perm, UsageRefused
from fakecord.testbot import ProbeClient

pytestmark = pytest.mark.usefixtures("test_client")


async def test_slash_with_typed_options_and_locales(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    alice = fake.add_user("alice", locale="fr")
    bob = fake.add_user("bob")
    res = await fake.slash(
        alice, fake.channel, "nines start", mode="nein", rounds=3, opponent=bob, ranked=True
    )
    assert res.ack_type == 4
    assert not res.errors
    assert res.message is not None
    assert res.message.content == "nein game, 3 rounds vs bob (ranked) [fr/en-US]"
    options = res.payload["data"]["options"][0]
    assert options["name"] == "start"
    assert options["type"] == 1
    assert {o["name"]: o["value"] for o in options["options"]}["opponent"] == str(bob.id)
    assert str(bob.id) in res.payload["data"]["resolved"]["members"]
    assert res.payload["locale"] == "fr"
    assert res.payload["guild_locale"] == "en-US"
    assert int(res.payload["app_permissions"]) & Perm.SEND_MESSAGES
    assert fake.visible(bob, fake.channel) == [res.message]


async def test_guild_locale_and_a_guild_added_while_connected(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    guild = fake.add_guild("Québec", preferred_locale="fr")
    chan = fake.add_channel(guild, "jeux")
    zoe = fake.add_user("zoe", locale="de", guild=guild)
    await fake.settle()
    res = await fake.slash(zoe, chan, "nines start", mode="nines")
    assert res.message is not None
    assert res.message.content.endswith("[de/fr]")


async def test_subcommand_group(fake_discord: FakeDiscord) -> None:
    alice = fake_discord.add_user("alice")
    res = await fake_discord.slash(
        alice, fake_discord.channel, "nines settings language", code="fr"
    )
    assert res.message is not None
    assert res.message.content == "language=fr"
    group = res.payload["data"]["options"][0]
    assert group["type"] == 2
    assert group["options"][0]["type"] == 1


async def test_the_client_refuses_what_discord_would_not_offer(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    alice = fake.add_user("alice")
    with pytest.raises(UsageRefused, match="never synced"):
        await fake.slash(alice, fake.channel, "poker start")
    with pytest.raises(UsageRefused, match="not a choice"):
        await fake.slash(alice, fake.channel, "nines start", mode="chess")
    with pytest.raises(UsageRefused, match="above"):
        await fake.slash(alice, fake.channel, "nines start", mode="nines", rounds=99)
    with pytest.raises(UsageRefused, match="required"):
        await fake.slash(alice, fake.channel, "nines start")
    assert fake.interactions == {}


async def test_default_member_permissions_hide_a_command(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    mods = fake.add_role(fake.guild, "mods", Perm.MANAGE_MESSAGES)
    alice, mod = fake.add_user("alice"), fake.add_user("mod", roles=[mods])
    with pytest.raises(UsageRefused, match="lacks the permissions"):
        await fake.slash(alice, fake.channel, "nines-admin stop")
    res = await fake.slash(mod, fake.channel, "nines-admin stop")
    assert res.message is not None
    assert res.message.content == "stopped"


async def test_a_member_cannot_invoke_where_they_cannot_see(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    secret = fake.add_channel(name="staff")
    fake.set_permissions(secret, fake.guild.everyone, deny=Perm.VIEW_CHANNEL)
    alice = fake.add_user("alice")
    await fake.settle()
    with pytest.raises(UsageRefused, match="cannot see"):
        await fake.slash(alice, secret, "nines start", mode="nines")
    assert fake.visible(alice, secret) == []


async def test_ephemeral_is_seen_and_clicked_only_by_its_user(
    fake_discord: FakeDiscord, test_client: ProbeClient
) -> None:
    fake = fake_discord
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    res = await fake.slash(alice, fake.channel, "nines hand")
    hand = res.message
    assert hand is not None
    assert res.ephemeral
    assert hand.flags & 64
    assert hand in fake.visible(alice, fake.channel)
    assert hand not in fake.visible(bob, fake.channel)
    with pytest.raises(UsageRefused, match="cannot see"):
        await fake.click(bob, hand, "Play")
    # The bot itself can reach it only through the interaction token.
    with pytest.raises(discord.NotFound) as exc:
        await test_client.http.get_message(fake.channel.id, hand.id)
    assert exc.value.code == 10008
    route = Route(
        "PATCH",
        "/channels/{channel_id}/messages/{message_id}",
        channel_id=fake.channel.id,
        message_id=hand.id,
    )
    with pytest.raises(discord.NotFound) as exc:
        await test_client.http.request(route, json={"content": "x"})
    assert exc.value.code == 10008


async def test_click_updates_message_and_disabled_buttons_cannot_be_clicked(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    alice = fake.add_user("alice")
    hand = (await fake.slash(alice, fake.channel, "nines hand")).message
    assert hand is not None
    assert [(b.label, b.disabled) for b in hand.buttons()] == [
        ("Play", False),
        ("Sort", False),
        ("Pass", True),
    ]
    sorted_ = await fake.click(alice, hand, "Sort")
    assert sorted_.ack_type == 6
    assert hand.content == "Your hand: 9♥ 9♠"
    with pytest.raises(UsageRefused, match="disabled"):
        await fake.click(alice, hand, "Pass")
    res = await fake.click(alice, hand, "hand:play")  # by custom_id
    assert res.ack_type == 7
    assert res.message is hand
    assert hand.content == "You played a card"
    assert hand.buttons()[0].disabled
    assert res.payload["message"]["flags"] & 64
    assert res.payload["message"]["interaction_metadata"]["user"]["id"] == str(alice.id)
    with pytest.raises(UsageRefused, match="disabled"):
        await fake.click(alice, hand, "Play")


async def test_persistent_dynamic_button(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    start = (await fake.slash(alice, fake.channel, "nines start", mode="nines")).message
    assert start is not None
    res = await fake.click(bob, start, "Join")
    assert res.message is not None
    assert res.ephemeral
    assert res.message.content.startswith("bob joined game ")
    assert res.message in fake.visible(bob, fake.channel)
    assert res.message not in fake.visible(alice, fake.channel)


async def test_deferred_thinking_then_followup(fake_discord: FakeDiscord) -> None:
    alice = fake_discord.add_user("alice")
    res = await fake_discord.slash(alice, fake_discord.channel, "nines stats")
    assert res.ack_type == 5
    assert res.deferred
    assert res.message is not None
    assert res.message.content == "Wins: 3"
    assert not res.message.loading
    assert res.ephemeral


async def test_attachments_keep_their_bytes(fake_discord: FakeDiscord) -> None:
    alice = fake_discord.add_user("alice")
    res = await fake_discord.slash(alice, fake_discord.channel, "nines leaderboard")
    msg = res.message
    assert msg is not None
    assert msg.content == "Leaderboard"
    files = {a.filename: a for a in msg.attachments}
    assert files["chart.png"].data.startswith(b"\x89PNG")
    assert files["scores.json"].data == b'{"top": []}'


async def test_attachment_in_the_first_answer(fake_discord: FakeDiscord) -> None:
    alice = fake_discord.add_user("alice")
    res = await fake_discord.slash(alice, fake_discord.channel, "nines chart")
    assert res.message is not None
    assert [(a.filename, a.data) for a in res.message.attachments] == [
        ("chart.png", b"\x89PNG\r\n\x1a\nchart")
    ]


async def _raw_callback(client: discord.Client, inter_id: int, token: str, body: Any) -> Any:
    route = Route(
        "POST",
        "/interactions/{interaction_id}/{interaction_token}/callback",
        interaction_id=inter_id,
        interaction_token=token,
    )
    return await client.http.request(route, json=body, params={"with_response": 1})


async def test_late_acknowledgement_is_unknown_interaction(
    fake_discord: FakeDiscord, test_client: ProbeClient
) -> None:
    fake = fake_discord
    alice = fake.add_user("alice")
    res = await fake.slash(alice, fake.channel, "nines slow", wait=False)
    fake.clock.advance(3.5)
    test_client.slow_gate.set()
    await fake.settle()
    assert res.failed
    assert [e.code for e in res.errors] == [10062]
    [failure] = test_client.failures
    assert (failure.status, failure.code) == (404, 10062)


async def test_double_acknowledgement(fake_discord: FakeDiscord, test_client: ProbeClient) -> None:
    fake = fake_discord
    alice = fake.add_user("alice")
    res = await fake.slash(alice, fake.channel, "nines start", mode="nines")
    with pytest.raises(discord.HTTPException) as exc:
        await _raw_callback(test_client, res.id, res.token, {"type": 4, "data": {"content": "2"}})
    assert (exc.value.status, exc.value.code) == (400, 40060)
    assert res.errors[-1].code == 40060


async def test_token_expires_after_15_minutes(
    fake_discord: FakeDiscord, test_client: ProbeClient
) -> None:
    fake = fake_discord
    alice = fake.add_user("alice")
    res = await fake.slash(alice, fake.channel, "nines start", mode="nines")
    interaction = next(i for i in test_client.seen if i.id == res.id)
    fake.clock.advance(14 * 60)
    await interaction.followup.send("still in time")
    fake.clock.advance(61)
    with pytest.raises(discord.HTTPException) as exc:
        await interaction.followup.send("too late")
    assert (exc.value.status, exc.value.code) == (401, 50027)
    with pytest.raises(discord.HTTPException) as exc:
        await interaction.edit_original_response(content="too late")
    assert exc.value.code == 50027
    assert [e.code for e in res.errors] == [50027, 50027]


async def test_update_callback_on_a_slash_command_is_refused(
    fake_discord: FakeDiscord, test_client: ProbeClient
) -> None:
    fake = fake_discord
    violations = fake.expect_violations()
    alice = fake.add_user("alice")
    res = await fake.slash(alice, fake.channel, "nines slow", wait=False)
    with pytest.raises(discord.HTTPException) as exc:
        await _raw_callback(test_client, res.id, res.token, {"type": 7, "data": {"content": "x"}})
    assert exc.value.code == 50035
    assert violations
    await _raw_callback(test_client, res.id, res.token, {"type": 4, "data": {"content": "ok"}})
    test_client.slow_gate.set()
    await fake.settle()


async def test_request_log_counts_discord_calls(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    alice = fake.add_user("alice")
    before = len(fake.requests)
    await fake.slash(alice, fake.channel, "nines stats")
    calls = [(r.method, r.route, r.status) for r in fake.requests[before:]]
    assert calls == [
        ("POST", "/interactions/{interaction_id}/{interaction_token}/callback", 200),
        ("POST", "/webhooks/{webhook_id}/{webhook_token}", 200),
    ]


async def test_modal_open_and_submit(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    opened = await fake.slash(alice, fake.channel, "nines settings name")
    assert opened.ack_type == 9
    assert opened.modal is not None
    assert opened.modal["title"] == "Your name"
    with pytest.raises(UsageRefused):
        await fake.submit_modal(bob, opened, {"Name": "Bobby"})
    with pytest.raises(UsageRefused, match="required"):
        await fake.submit_modal(alice, opened, {})
    res = await fake.submit_modal(alice, opened, {"Name": "Ali"})
    assert res.message is not None
    assert res.message.content == "name=Ali"
    assert res.ephemeral


async def test_followups_edit_and_delete_through_the_token(
    fake_discord: FakeDiscord, test_client: ProbeClient
) -> None:
    fake = fake_discord
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    res = await fake.slash(alice, fake.channel, "nines hand")
    interaction = next(i for i in test_client.seen if i.id == res.id)
    note = await interaction.followup.send("psst", ephemeral=True, wait=True)
    shout = await interaction.followup.send("everyone!", wait=True)
    assert [m.content for m in fake.visible(bob, fake.channel)] == ["everyone!"]
    await note.edit(content="psst (edited)")
    assert res.followups[0].content == "psst (edited)"
    await interaction.delete_original_response()
    await shout.delete()
    assert [m.content for m in fake.visible(alice, fake.channel)] == ["psst (edited)"]
    with pytest.raises(discord.NotFound) as exc:
        await interaction.original_response()
    assert exc.value.code == 10008


async def test_autocomplete(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    alice = fake.add_user("alice")
    choices = await fake.autocomplete(
        alice, fake.channel, "nines settings language", "code", code="f"
    )
    assert choices == [{"name": "fr", "value": "fr"}]
    with pytest.raises(UsageRefused, match="no autocomplete"):
        await fake.autocomplete(alice, fake.channel, "nines start", "mode")


async def test_select_menu(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    alice = fake.add_user("alice")
    hand = (await fake.slash(alice, fake.channel, "nines hand")).message
    assert hand is not None
    with pytest.raises(UsageRefused, match="not options"):
        await fake.select(alice, hand, "Pick a card", ["Joker"])
    with pytest.raises(UsageRefused, match="bounds"):
        await fake.select(alice, hand, "hand:card", ["9S", "9H"])
    res = await fake.select(alice, hand, "Pick a card", ["Nine of hearts"])
    assert res.payload["data"] == {"custom_id": "hand:card", "component_type": 3, "values": ["9H"]}
    assert hand.content == "You chose 9H"


async def test_components_v2_layout(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    alice = fake.add_user("alice")
    table = (await fake.slash(alice, fake.channel, "nines table")).message
    assert table is not None
    assert table.flags & (1 << 15)
    texts = [c["content"] for c in table.all_components() if c["type"] == 10]
    assert texts == ["Table: 0 dealt"]
    await fake.click(alice, table, "Deal")
    await fake.click(alice, table, "Deal")
    texts = [c["content"] for c in table.all_components() if c["type"] == 10]
    assert texts == ["Table: 2 dealt"]
