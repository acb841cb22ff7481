"""A small real discord.py client for exercising the double: a /nines group and buttons."""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any, Literal

import discord
from discord import app_commands

from .server import FakeDiscord


class JoinButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"nines:join:(?P<game>\d+)"
):
    """Persistent: survives restarts because discord.py matches the custom_id template."""

    def __init__(self, game: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join", custom_id=f"nines:join:{game}", style=discord.ButtonStyle.primary
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"{interaction.user.name} joined game {self.game}", ephemeral=True
        )


class HandView(discord.ui.View):
    """Not persistent: discord.py finds it by the response_message_id the callback returned."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Play", custom_id="hand:play")
    async def play(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        button.disabled = True
        await interaction.response.edit_message(content="You played a card", view=self)

    @discord.ui.select(
        custom_id="hand:card",
        placeholder="Pick a card",
        options=[
            discord.SelectOption(label="Nine of spades", value="9S"),
            discord.SelectOption(label="Nine of hearts", value="9H"),
        ],
        row=1,
    )
    async def card(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.edit_message(content=f"You chose {select.values[0]}")

    @discord.ui.button(label="Sort", custom_id="hand:sort")
    async def sort(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()  # deferred update: the hand is edited afterwards
        await interaction.edit_original_response(content="Your hand: 9♥ 9♠")

    @discord.ui.button(label="Pass", custom_id="hand:pass", disabled=True)
    async def pass_(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()


class TableView(discord.ui.LayoutView):
    """Components v2: a container with text and a row of buttons."""

    def __init__(self, dealt: int = 0) -> None:
        super().__init__(timeout=None)
        deal = discord.ui.Button["TableView"](label="Deal", custom_id="table:deal")
        deal.callback = self.deal  # type: ignore[method-assign]
        row = discord.ui.ActionRow["TableView"](deal)
        text = discord.ui.TextDisplay["TableView"](f"Table: {dealt} dealt")
        self.add_item(discord.ui.Container["TableView"](text, row))
        self.dealt = dealt

    async def deal(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(view=TableView(self.dealt + 1))


class ProbeClient(discord.Client):
    """`slow_gate`: /nines slow waits on it before answering (to miss the 3-second window)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("guild_ready_timeout", 0.05)
        super().__init__(intents=discord.Intents.default(), **kwargs)
        self.tree = app_commands.CommandTree(self)
        self.slow_gate = asyncio.Event()
        self.seen: list[discord.Interaction] = []
        self.failures: list[discord.HTTPException] = []
        self.tree.add_command(make_group(self))

    async def setup_hook(self) -> None:
        self.add_dynamic_items(JoinButton)
        await self.tree.sync()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.seen.append(interaction)


def make_group(client: ProbeClient) -> app_commands.Group:
    group = app_commands.Group(name="nines", description="Play Nines")
    moderators = app_commands.Group(
        name="nines-admin",
        description="Moderation",
        default_permissions=discord.Permissions(manage_messages=True),
    )

    @moderators.command(name="stop", description="Stop a game")
    async def stop(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("stopped")

    client.tree.add_command(moderators)

    @group.command(name="start", description="Start a game")
    @app_commands.describe(mode="Variant", rounds="How many rounds")
    async def start(
        interaction: discord.Interaction,
        mode: Literal["nines", "nein"],
        rounds: app_commands.Range[int, 1, 20] = 5,
        opponent: discord.Member | None = None,
        ranked: bool = False,
    ) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(JoinButton(interaction.id % 100000))
        who = f" vs {opponent.display_name}" if opponent else ""
        await interaction.response.send_message(
            f"{mode} game, {rounds} rounds{who}{' (ranked)' if ranked else ''}"
            f" [{interaction.locale.value}/{interaction.guild_locale}]",
            view=view,
        )

    @group.command(name="hand", description="See your hand")
    async def hand(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Your hand: 9♠ 9♥", view=HandView(), ephemeral=True)

    @group.command(name="stats", description="Your stats (deferred)")
    async def stats(interaction: discord.Interaction, private: bool = True) -> None:
        await interaction.response.defer(ephemeral=private, thinking=True)
        await interaction.followup.send("Wins: 3")

    @group.command(name="leaderboard", description="Top players, with a chart")
    async def leaderboard(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        png = discord.File(io.BytesIO(b"\x89PNG\r\n\x1a\nfake"), "chart.png")
        data = discord.File(io.BytesIO(b'{"top": []}'), "scores.json")
        await interaction.edit_original_response(content="Leaderboard", attachments=[png, data])

    @group.command(name="table", description="The table, in components v2")
    async def table(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=TableView())

    @group.command(name="chart", description="The score chart, attached to the answer")
    async def chart(interaction: discord.Interaction) -> None:
        png = discord.File(io.BytesIO(b"\x89PNG\r\n\x1a\nchart"), "chart.png")
        await interaction.response.send_message("Scores", file=png)

    @group.command(name="slow", description="Answers only when the test lets it")
    async def slow(interaction: discord.Interaction) -> None:
        await client.slow_gate.wait()
        try:
            await interaction.response.send_message("finally")
        except discord.HTTPException as exc:
            client.failures.append(exc)

    settings = app_commands.Group(name="settings", description="Settings", parent=group)

    @settings.command(name="language", description="Pick a language")
    async def language(interaction: discord.Interaction, code: str) -> None:
        await interaction.response.send_message(f"language={code}", ephemeral=True)

    @language.autocomplete("code")
    async def language_codes(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        codes = ["en-US", "fr", "de"]
        return [app_commands.Choice(name=c, value=c) for c in codes if c.startswith(current)]

    @settings.command(name="name", description="Pick a display name")
    async def name(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    return group


class NameModal(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(label="Name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"name={self.name.value}", ephemeral=True)


async def make_test_client(fake: FakeDiscord) -> discord.Client:
    return ProbeClient()
