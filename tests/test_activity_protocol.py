"""bot/activity: the table model's JSON field for field as ACTIVITY.md says, what a watcher and
a seat get, the client frames accepted and refused, and the Activity's settings."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.activity.model import table_for
from bot.activity.protocol import (
    Act,
    BadFrame,
    Hello,
    LobbyAct,
    Ping,
    parse_frame,
    table_json,
)
from bot.session import GameSession, SeatInfo
from bot.settings import Settings, SettingsError
from bot.storage.values import GameRow
from engine import Game, Rules, sort_hand

from .test_settings import TOKEN

#: The contract's field names (ACTIVITY.md, "TABLE").
TABLE = {
    "game_id", "kind", "rules", "status", "viewer", "seats", "hand_number", "phase", "dealer",
    "trump", "spits", "exchange_order", "exchange", "turn", "trick", "tricks", "scores",
    "start_scores", "sheet", "last_result", "tiebreak", "winners", "ranking", "hand",
    "notation", "n",  # ACTIVITY.md, Changes (activity2)
    "last_tricks",  # ACTIVITY.md, Changes (issue 46)
}  # fmt: skip
KIND = {
    "name", "unit", "higher_wins", "faces", "has_quota", "signed_scores", "hidden_tricks",
    "trump_from_play",
}  # fmt: skip
SEAT = {
    "seat", "name", "code", "user_id", "computer", "level", "away", "host", "team",
    "cards_left", "tricks_won", "quota_left", "avatar",
}  # fmt: skip
HAND = {"seat", "cards", "legal", "playable", "put_down"}
SHEET_ROW = {"number", "trump", "dealer", "scores", "total"}
RESULT = {"number", "tricks_won", "scores", "spare", "instant_win", "nines", "points"}
TRICK = {"number", "cards", "winner", "winning_card"}

ALICE, BOB = 10**17 + 1, 10**17 + 2


def session(ruleset: str, moves: int) -> GameSession:
    """A live game of ``ruleset`` (Alice, Bob, computers) after ``moves`` random legal moves."""
    rules = Rules.from_settings(ruleset)
    row = GameRow(
        id=42, guild_id=1, channel_id=2, thread_id=None, kind=rules.game,  # type: ignore[arg-type]
        rules=rules.to_dict(), seed=5, status="live", host_id=ALICE, language="en",
        lobby_message_id=None, table_message_id=None, turn_deadline=None, created_at=0.0,
        updated_at=0.0, ended_at=None, end_reason=None, hands_played=None, rated=True,
    )  # fmt: skip
    seats = [SeatInfo("Alice", ALICE), SeatInfo("Bob", BOB)]
    seats += [SeatInfo(f"🤖 Bot {i}", None, "normal") for i in range(rules.players - 2)]
    game = Game(rules, 5)
    rng = random.Random(3)
    for _ in range(moves):
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    deps: Any = None  # reading a session touches none of its dependencies
    return GameSession(row, seats, deps, players=rules.players, game=game)


@pytest.mark.parametrize(("ruleset", "moves"), [("classic", 9), ("nein-nine", 10)])
def test_every_field_of_the_contract_and_no_other(ruleset: str, moves: int) -> None:
    live = session(ruleset, moves)
    table = table_json(table_for(live, 0), {ALICE: "https://cdn.example/a.png"})
    json.dumps(table)  # all of it is JSON
    assert set(table) == TABLE
    assert table["notation"] == "en" and table["n"] == moves
    assert set(table["kind"]) == KIND and table["kind"]["name"] == live.rules.game
    assert {"ruleset", "players", "quota", "teams"} <= set(table["rules"])
    assert all(set(seat) == SEAT for seat in table["seats"])
    assert table["seats"][0]["user_id"] == str(ALICE)  # ids as strings: JS numbers lose them
    assert table["seats"][0]["avatar"] == "https://cdn.example/a.png"
    assert table["seats"][2]["user_id"] is None and table["seats"][2]["computer"] is True
    assert set(table["hand"]) == HAND and table["hand"]["seat"] == 0
    held = live.view(0).hand
    assert table["hand"]["cards"] == [str(c) for c in sort_hand(held)]  # in display order
    assert set(table["hand"]["playable"]) <= set(table["hand"]["cards"])
    assert all(set(row) == SHEET_ROW for row in table["sheet"])
    if table["trick"] is not None:
        assert set(table["trick"]) == TRICK
        assert all(set(p) == {"seat", "card", "call"} for p in table["trick"]["cards"])
    assert table["trump"] in (None, "H", "D", "C", "S")
    assert table["turn"] is None or set(table["turn"]) == {"seat", "kind", "deadline"}


def test_a_finished_hand_has_its_result_and_the_sheet_its_row() -> None:
    live = session("classic", 60)  # past the first hand of classic Nines
    table = table_json(table_for(live, 1))
    assert table["hand_number"] >= 2
    assert set(table["last_result"]) == RESULT and len(table["sheet"]) >= 1
    assert all(set(t) == TRICK for t in table["tricks"])
    assert all(set(t) == TRICK for t in table["last_tricks"])


def test_a_watcher_gets_no_hand_and_a_seat_only_its_own() -> None:
    live = session("classic", 3)
    watcher = table_json(table_for(live, None))
    assert watcher["hand"] is None and watcher["viewer"] is None
    bob = table_json(table_for(live, 1))
    assert bob["hand"]["seat"] == 1
    alice_cards = {str(c) for c in live.view(0).hand}
    assert not alice_cards & set(bob["hand"]["cards"])
    assert not alice_cards & set(json.dumps(watcher).split('"'))


def test_client_frames() -> None:
    hello = parse_frame(
        {
            "op": "hello",
            "access_token": "t",
            "instance_id": "i-1-gc-2-3",
            "channel_id": "3",
            "guild_id": None,
            "last_seq": 4,
            "locale": "fr",
        }
    )
    assert hello == Hello("t", "i-1-gc-2-3", 3, None, 4, "fr")
    assert parse_frame({"op": "act", "key": "k", "action": "9H", "n": 7}) == Act("k", "9H", 7)
    assert parse_frame({"op": "ping"}) == Ping()
    for bad in (
        [],
        {"op": "dance"},
        {"op": "act", "key": "", "action": "9H", "n": 0},
        {"op": "act", "key": "k" * 101, "action": "9H", "n": 0},
        {"op": "act", "key": "k", "n": 0},
        # The move count of the table the action was made on: always sent, a whole number.
        {"op": "act", "key": "k", "action": "9H"},
        {"op": "act", "key": "k", "action": "9H", "n": None},
        {"op": "act", "key": "k", "action": "9H", "n": "3"},
        {"op": "act", "key": "k", "action": "9H", "n": True},
        {"op": "act", "key": "k", "action": "9H", "n": -1},
        {"op": "act", "key": "k", "action": "9H", "n": 1.5},
        {"op": "hello", "access_token": "t", "instance_id": "i", "channel_id": 3},
        {
            "op": "hello",
            "access_token": "t",
            "instance_id": "i",
            "channel_id": "3",
            "last_seq": "1",
        },
    ):
        with pytest.raises(BadFrame):
            parse_frame(bad)


def test_the_activity_is_off_unless_its_port_and_secret_are_set() -> None:
    off = Settings.from_mapping({"DISCORD_TOKEN": TOKEN})
    assert off.activity_port is None and not off.activity_on
    on = Settings.from_mapping(
        {
            "DISCORD_TOKEN": TOKEN,
            "ACTIVITY_PORT": "8081",
            "DISCORD_CLIENT_SECRET": "s3cret",
            "DISCORD_CLIENT_ID": "123",
        }
    )
    assert on.activity_on and (on.activity_port, on.client_id) == (8081, 123)
    assert "s3cret" not in repr(on)
    with pytest.raises(SettingsError, match="DISCORD_CLIENT_SECRET"):
        Settings.from_mapping({"DISCORD_TOKEN": TOKEN, "ACTIVITY_PORT": "8081"})
    with pytest.raises(SettingsError, match="DISCORD_CLIENT_ID"):
        Settings.from_mapping({"DISCORD_TOKEN": TOKEN, "DISCORD_CLIENT_ID": "me"})
    with pytest.raises(SettingsError, match="ACTIVITY_PORT"):
        Settings.from_mapping({"DISCORD_TOKEN": TOKEN, "ACTIVITY_PORT": "http"})


def test_the_sign_in_budget_settings_have_defaults_and_refuse_nonsense() -> None:
    """Issue 44's settings: the defaults bot/activity/discord_api.py states its bound with,
    each settable, and a value out of range said in words naming the variable."""
    base = {"DISCORD_TOKEN": TOKEN, "ACTIVITY_PORT": "8081", "DISCORD_CLIENT_SECRET": "s"}
    defaults = Settings.from_mapping(base)
    assert (defaults.activity_discord_burst, defaults.activity_discord_per_minute) == (50, 300)
    assert (defaults.activity_address_burst, defaults.activity_address_per_minute) == (60, 60)
    assert defaults.activity_invalid_limit == 1_000 and defaults.activity_trusted_proxies == 0
    assert defaults.activity_recheck_seconds == 300
    tuned = Settings.from_mapping(
        {**base, "ACTIVITY_DISCORD_PER_MINUTE": "120", "ACTIVITY_RECHECK_SECONDS": "60"}
    )
    assert (tuned.activity_discord_per_minute, tuned.activity_recheck_seconds) == (120, 60)
    # Past Discord's own limits, or not a number: refused.
    for name, value in (
        ("ACTIVITY_INVALID_LIMIT", "10000"),
        ("ACTIVITY_DISCORD_PER_MINUTE", "3000"),
        ("ACTIVITY_ADDRESS_BURST", "lots"),
        ("ACTIVITY_RECHECK_SECONDS", "0"),
    ):
        with pytest.raises(SettingsError, match=name):
            Settings.from_mapping({**base, name: value})


def test_a_lobby_frame_names_one_of_the_lobby_moves() -> None:
    """Issue 46, item 15: ``{"op": "lobby", "key", "what"}``; any other ``what`` is refused."""
    for what in ("join", "leave", "cpu", "uncpu", "start", "open"):
        assert parse_frame({"op": "lobby", "key": "k", "what": what}) == LobbyAct("k", what)
    for bad in (
        {"op": "lobby", "key": "k", "what": "cancel"},
        {"op": "lobby", "key": "k"},
        {"op": "lobby", "what": "join"},
        {"op": "lobby", "key": "", "what": "join"},
    ):
        with pytest.raises(BadFrame):
            parse_frame(bad)
