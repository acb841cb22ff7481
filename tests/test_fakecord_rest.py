"""The double's REST rules: permissions, unknown things, threads, and bodies Discord refuses."""

from __future__ import annotations

import io
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import Route

from fakecord import FakeDiscord, Perm
from fakecord.fixtures import fail_on_violations


def _messages_route(channel_id: int) -> Route:
    return Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)


async def _post(client: discord.Client, channel_id: int, body: Any) -> Any:
    return await client.http.request(_messages_route(channel_id), json=body)


async def test_send_edit_delete_and_gateway_echo(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    fake = fake_discord
    chan = test_client.get_partial_messageable(fake.channel.id)
    sent = await chan.send("hello")
    stored = fake.visible(fake.add_user("alice"), fake.channel)
    assert [m.content for m in stored] == ["hello"]
    assert stored[0].author is fake.bot
    await sent.edit(content="edited")
    assert stored[0].content == "edited"
    assert stored[0].edited_timestamp
    fetched = await chan.fetch_message(sent.id)
    assert fetched.content == "edited"
    await sent.delete()
    assert stored[0].deleted
    with pytest.raises(discord.NotFound) as exc:
        await chan.fetch_message(sent.id)
    assert exc.value.code == 10008


async def test_deleted_channel_is_unknown(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    fake = fake_discord
    doomed = fake.add_channel(name="doomed")
    await fake.delete_channel(doomed)
    with pytest.raises(discord.NotFound) as exc:
        await test_client.get_partial_messageable(doomed.id).send("anyone?")
    assert (exc.value.status, exc.value.code) == (404, 10003)


async def test_deleted_message_is_unknown(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    fake = fake_discord
    sent = await test_client.get_partial_messageable(fake.channel.id).send("soon gone")
    await fake.delete_message(fake.store.message_by_id(sent.id))
    with pytest.raises(discord.NotFound) as exc:
        await sent.edit(content="too late")
    assert (exc.value.status, exc.value.code) == (404, 10008)


@pytest.mark.parametrize(
    ("denied", "code"),
    [(Perm.SEND_MESSAGES, 50013), (Perm.VIEW_CHANNEL, 50001)],
    ids=["no-send-messages", "no-view-channel"],
)
async def test_bot_missing_permissions(
    fake_discord: FakeDiscord, test_client: discord.Client, denied: Perm, code: int
) -> None:
    fake = fake_discord
    fake.set_permissions(fake.channel, fake.bot, deny=denied)
    with pytest.raises(discord.Forbidden) as exc:
        await test_client.get_partial_messageable(fake.channel.id).send("hi")
    assert (exc.value.status, exc.value.code) == (403, code)


async def test_bot_without_attach_files_cannot_upload(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    fake = fake_discord
    fake.set_permissions(fake.channel, fake.bot_role, deny=Perm.ATTACH_FILES)
    chan = test_client.get_partial_messageable(fake.channel.id)
    with pytest.raises(discord.Forbidden) as exc:
        await chan.send("chart", file=discord.File(io.BytesIO(b"png"), "c.png"))
    assert exc.value.code == 50013
    await chan.send("text is still fine")


async def test_attachments_via_multipart(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    fake = fake_discord
    chan = test_client.get_partial_messageable(fake.channel.id)
    png = discord.File(io.BytesIO(b"\x89PNG\r\n\x1a\n..."), "chart.png", description="scores")
    sent = await chan.send("end of game", files=[png, discord.File(io.BytesIO(b"{}"), "g.json")])
    stored = fake.store.message_by_id(sent.id)
    assert [(a.filename, a.data) for a in stored.attachments] == [
        ("chart.png", b"\x89PNG\r\n\x1a\n..."),
        ("g.json", b"{}"),
    ]
    assert stored.attachments[0].description == "scores"
    assert await sent.attachments[1].read() == b"{}"  # served from the double's CDN
    edited = await sent.edit(attachments=[sent.attachments[0]])
    assert [a.filename for a in edited.attachments] == ["chart.png"]


async def test_threads_need_create_public_threads(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    fake = fake_discord
    chan = test_client.get_channel(fake.channel.id)
    assert isinstance(chan, discord.TextChannel)
    msg = await chan.send("game #1")
    thread = await msg.create_thread(name="game-1")
    assert thread.id == msg.id
    assert fake.store.channels[thread.id].parent_id == fake.channel.id
    await thread.send("round 1")
    alice = fake.add_user("alice")
    assert [m.content for m in fake.visible(alice, fake.store.channels[thread.id])] == ["round 1"]
    loose = await chan.create_thread(name="side", type=discord.ChannelType.public_thread)
    assert fake.store.channels[loose.id].type == 11

    fake.set_permissions(fake.channel, fake.bot_role, deny=Perm.CREATE_PUBLIC_THREADS)
    other = await chan.send("game #2")
    with pytest.raises(discord.Forbidden) as exc:
        await other.create_thread(name="game-2")
    assert exc.value.code == 50013


async def test_invalid_body_from_the_spec(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    violations = fake_discord.expect_violations()
    with pytest.raises(discord.HTTPException) as exc:
        await _post(test_client, fake_discord.channel.id, {"content": "x", "tts": "yes"})
    assert (exc.value.status, exc.value.code) == (400, 50035)
    assert "tts" in str(exc.value)
    assert [v.code for v in violations] == [50035]


def _row(*ids: str) -> dict[str, Any]:
    return {
        "type": 1,
        "components": [{"type": 2, "style": 1, "label": i, "custom_id": i} for i in ids],
    }


@pytest.mark.parametrize(
    ("body", "where"),
    [
        pytest.param(
            {"components": [_row(f"b{i}") for i in range(6)]}, "components", id="six-action-rows"
        ),
        pytest.param(
            {"components": [_row(*(f"b{i}" for i in range(6)))]},
            "components",
            id="six-buttons-in-a-row",
        ),
        pytest.param(
            {"components": [_row("same"), _row("same")]}, "duplicated", id="duplicate-custom-ids"
        ),
        pytest.param({"components": [_row("x" * 101)]}, "custom_id", id="long-custom-id"),
        pytest.param({"content": "x" * 2001}, "content", id="long-content"),
        pytest.param(
            {"embeds": [{"description": "x" * 4000}, {"description": "y" * 2001}]},
            "6000",
            id="embeds-over-6000",
        ),
    ],
)
async def test_limits_the_spec_does_not_express(
    fake_discord: FakeDiscord, test_client: discord.Client, body: dict[str, Any], where: str
) -> None:
    violations = fake_discord.expect_violations()
    with pytest.raises(discord.HTTPException) as exc:
        await _post(test_client, fake_discord.channel.id, {"content": "c", **body})
    assert (exc.value.status, exc.value.code) == (400, 50035)
    assert where in str(exc.value)
    assert len(violations) == 1


async def test_components_v2_may_have_more_top_level_components(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    texts = [{"type": 10, "content": f"line {i}"} for i in range(7)]
    await _post(test_client, fake_discord.channel.id, {"flags": 1 << 15, "components": texts})


async def test_violations_fail_the_test_unless_expected(fake_discord: FakeDiscord) -> None:
    from fakecord.server import Violation

    fake_discord.violations.append(Violation("POST", "/x", 50035, "content", "too long"))
    with pytest.raises(pytest.fail.Exception, match="too long"):
        fail_on_violations(fake_discord)
    fake_discord.expect_violations()
    fail_on_violations(fake_discord)


async def test_routes_the_double_lacks_are_violations(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    violations = fake_discord.expect_violations()
    with pytest.raises(discord.NotFound):
        await test_client.http.request(Route("GET", "/voice/regions"))
    assert violations[0].reason == "route not in the double"


async def test_commands_registration_global_and_guild(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    fake = fake_discord
    app = fake.app_id
    globals_ = await test_client.http.get_global_commands(app)
    assert sorted(c["name"] for c in globals_) == ["nines", "nines-admin"]
    body = [{"name": "ping", "description": "Ping", "type": 1}]
    await test_client.http.bulk_upsert_guild_commands(app, fake.guild.id, body)
    listed = await test_client.http.get_guild_commands(app, fake.guild.id)
    assert [c["name"] for c in listed] == ["ping"]
    assert fake.commands.find(fake.guild.id, "ping") is not None
    again = await test_client.http.bulk_upsert_guild_commands(app, fake.guild.id, body)
    assert again[0]["id"] == listed[0]["id"]  # same name keeps its id


async def test_fetches_discord_py_makes(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    fake = fake_discord
    alice = fake.add_user("alice")
    chan = await test_client.fetch_channel(fake.channel.id)
    assert chan.name == "general"
    guild = await test_client.fetch_guild(fake.guild.id)
    assert guild.name == "Nines Test"
    member = await guild.fetch_member(alice.id)
    assert member.name == "alice"
    user = await test_client.fetch_user(alice.id)
    assert user.name == "alice"


async def test_people_talking_reach_the_bot_without_content_intent(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    fake = fake_discord
    heard: list[discord.Message] = []

    async def on_message(message: discord.Message) -> None:
        heard.append(message)

    test_client.event(on_message)
    alice = fake.add_user("alice")
    await fake.say(alice, fake.channel, "secret plan")
    await fake.settle()
    assert [m.author.name for m in heard] == ["alice"]
    assert heard[0].content == ""  # no message_content intent: Discord blanks it
    assert fake.visible(alice, fake.channel)[0].content == "secret plan"


async def test_malformed_json_is_refused(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    violations = fake.expect_violations()
    headers = {"Authorization": f"Bot {fake.token}", "Content-Type": "application/json"}
    url = f"{fake.api_base}/channels/{fake.channel.id}/messages"
    async with aiohttp.ClientSession() as http, http.post(url, data=b"{", headers=headers) as resp:
        assert resp.status == 400
        assert (await resp.json())["code"] == 50109
    assert violations[0].code == 50109


async def test_wrong_token_is_unauthorized(fake_discord: FakeDiscord) -> None:
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"{fake_discord.api_base}/users/@me", headers={"Authorization": "Bot x"}) as resp,
    ):
        assert resp.status == 401


async def test_private_threads_members_archive_and_lock(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    fake = fake_discord
    alice = fake.add_user("alice")
    chan = test_client.get_channel(fake.channel.id)
    assert isinstance(chan, discord.TextChannel)
    thread = await chan.create_thread(name="hands", type=discord.ChannelType.private_thread)
    await thread.send("only members see this")
    stored = fake.store.channels[thread.id]
    assert fake.visible(alice, stored) == []
    await thread.add_user(discord.Object(alice.id))
    assert [m.content for m in fake.visible(alice, stored)] == ["only members see this"]

    await thread.edit(archived=True, locked=True)
    assert stored.archived
    assert stored.locked
    fake.set_permissions(fake.channel, fake.bot_role, deny=Perm.MANAGE_THREADS)
    with pytest.raises(discord.HTTPException) as exc:
        await thread.send("let me in")
    assert (exc.value.status, exc.value.code) == (400, 50083)


async def test_reactions(fake_discord: FakeDiscord, test_client: discord.Client) -> None:
    fake = fake_discord
    msg = await test_client.get_partial_messageable(fake.channel.id).send("vote")
    await msg.add_reaction("👍")
    assert fake.store.message_by_id(msg.id).reactions == {"👍": {fake.bot.id}}
    fake.set_permissions(fake.channel, fake.bot_role, deny=Perm.ADD_REACTIONS)
    with pytest.raises(discord.Forbidden) as exc:
        await msg.add_reaction("👎")
    assert exc.value.code == 50013
    await msg.remove_reaction("👍", discord.Object(fake.bot.id))


@pytest.mark.parametrize(
    "body",
    [
        pytest.param({"content": "hi", "components": [{"type": 10, "content": "x"}]}, id="content"),
        pytest.param(
            {"components": [{"type": 10, "content": str(i)} for i in range(41)]}, id="41-items"
        ),
    ],
)
async def test_components_v2_rules(
    fake_discord: FakeDiscord, test_client: discord.Client, body: dict[str, Any]
) -> None:
    violations = fake_discord.expect_violations()
    with pytest.raises(discord.HTTPException) as exc:
        await _post(test_client, fake_discord.channel.id, {"flags": 1 << 15, **body})
    assert exc.value.code == 50035
    assert len(violations) == 1


async def test_mentions_follow_allowed_mentions(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    fake = fake_discord
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    chan = test_client.get_partial_messageable(fake.channel.id)
    sent = await chan.send(f"<@{alice.id}> and <@{bob.id}>, your turn")
    assert fake.store.message_by_id(sent.id).mentions == [alice, bob]
    quiet = await chan.send(
        f"<@{alice.id}> and <@{bob.id}>",
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(bob.id)]),
    )
    assert fake.store.message_by_id(quiet.id).mentions == [bob]


async def test_command_names_follow_discords_naming_rule(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    """Lowercase letters of any script, digits, - _ ': accented French names pass, a capital
    or a space (in a name, an option's name or a localisation) is refused as Discord does."""
    fake = fake_discord
    app = fake.app_id
    option = {"name": "départ", "description": "d", "type": 4}
    good = {
        "name": "règles",
        "name_localizations": {"fr": "arrêter", "ja": "ルール"},
        "description": "Règles",
        "type": 1,
        "options": [{**option, "name_localizations": {"fr": "victoire_immédiate"}}],
    }
    await test_client.http.bulk_upsert_guild_commands(app, fake.guild.id, [good])
    assert fake.commands.find(fake.guild.id, "règles") is not None
    violations = fake.expect_violations()
    for bad, field in [
        ({**good, "name": "Règles"}, "0.name"),
        ({**good, "name_localizations": {"fr": "deux mots"}}, "0.name_localizations.fr"),
        ({**good, "options": [{**option, "name": "Départ"}]}, "0.options.0.name"),
    ]:
        with pytest.raises(discord.HTTPException) as exc:
            await test_client.http.bulk_upsert_guild_commands(app, fake.guild.id, [bad])
        assert (exc.value.status, exc.value.code) == (400, 50035)
        assert field in str(exc.value), exc.value
    assert [v.code for v in violations] == [50035] * 3
    # A user command's name may have capitals and spaces.
    user_command = {"name": "Show Hand", "type": 2}
    await test_client.http.bulk_upsert_guild_commands(app, fake.guild.id, [user_command])
