"""Rules vocabulary: rulesets, settings, trump presets (N5), start 3..21 (N7), quotas."""

from __future__ import annotations

import pytest

from engine import RULESETS, TRUMP_PRESETS, Rules, SettingError, Suit, find_ruleset

H, D, C, S = Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES

# N5, word for word.
PRESET_ORDERS = {
    "classic": (H, D, C, S, None),
    "spades-first": (S, H, D, C, None),
    "hdsc": (H, D, S, C, None),
    "hcds": (H, C, D, S, None),
    "quebec": (H, S, D, C, None),
    "clubs-first": (C, D, H, S, None),
}


@pytest.mark.parametrize(("name", "order"), PRESET_ORDERS.items())
def test_trump_presets_follow_n5(name: str, order: tuple[Suit | None, ...]) -> None:
    assert TRUMP_PRESETS[name] == order
    rules = Rules.from_settings("classic", {"trumps": name})
    assert rules.trumps == order
    assert rules.settings()["trumps"] == name
    # One entry per deal, repeating.
    assert [rules.trump_of_hand(i) for i in range(11)] == [order[i % 5] for i in range(11)]


def test_exactly_the_n5_presets_exist() -> None:
    assert set(TRUMP_PRESETS) == set(PRESET_ORDERS)


def test_default_trumps_are_classic() -> None:
    assert Rules.from_settings("classic").trumps == (H, D, C, S, None)


@pytest.mark.parametrize(
    ("text", "canonical", "order"),
    [
        ("H", "H", (H,)),
        ("nt", "NT", (None,)),
        ("h,s,nt", "H,S,NT", (H, S, None)),
        ("S D C H NT", "S,D,C,H,NT", (S, D, C, H, None)),
        ("H,H,H,H,H,D,D,D,D,NT", "H,H,H,H,H,D,D,D,D,NT", (H,) * 5 + (D,) * 4 + (None,)),
    ],
)
def test_custom_trumps_of_1_to_10_entries(
    text: str, canonical: str, order: tuple[Suit | None, ...]
) -> None:
    rules = Rules.from_settings("classic", {"trumps": text})
    assert rules.trumps == order
    assert rules.settings()["trumps"] == canonical
    assert Rules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize("text", ["", ",", "H,X", "hearts", "H,D,C,S,NT,H,D,C,S,NT,H", "N T"])
def test_bad_custom_trumps_are_rejected_clearly(text: str) -> None:
    with pytest.raises(SettingError, match=r"trumps must be a preset .* 1 to 10 entries"):
        Rules.from_settings("classic", {"trumps": text})


@pytest.mark.parametrize("start", [3, 9, 21])
def test_start_3_to_21(start: int) -> None:
    rules = Rules.from_settings("classic", {"start": start})
    assert rules.start == start
    assert Rules.from_settings("partnership", {"start": str(start)}).start == start


@pytest.mark.parametrize("start", [2, 22, 0, -9])
def test_start_out_of_range_is_rejected(start: int) -> None:
    with pytest.raises(SettingError, match="start must be between 3 and 21"):
        Rules.from_settings("classic", {"start": start})


def test_start_must_be_a_number() -> None:
    with pytest.raises(SettingError, match="start must be a whole number"):
        Rules.from_settings("classic", {"start": "nine"})


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("exchange", "right", "exchange must be one of left, dealer"),
        ("ties", "coin", "ties must be one of play-on, joint"),
        ("instant_win", "maybe", "instant_win must be one of on, off"),
    ],
)
def test_bad_choices_are_rejected(key: str, value: str, message: str) -> None:
    with pytest.raises(SettingError, match=message):
        Rules.from_settings("classic", {key: value})


def test_unknown_setting_and_ruleset() -> None:
    with pytest.raises(SettingError, match="Unknown setting 'colour'"):
        Rules.from_settings("classic", {"colour": "red"})
    with pytest.raises(SettingError, match="Unknown ruleset 'bridge'"):
        Rules.from_settings("bridge")
    with pytest.raises(SettingError):
        find_ruleset("whist")


def test_setting_errors_are_value_errors() -> None:
    assert issubclass(SettingError, ValueError)


def test_defaults() -> None:
    rules = Rules.from_settings("classic")
    assert rules.exchange == "left"
    assert rules.ties == "play-on"
    assert rules.instant_win is False
    assert rules.start == 9
    assert rules.settings() == {
        "trumps": "classic",
        "exchange": "left",
        "ties": "play-on",
        "instant_win": "off",
        "start": 9,
    }


def test_setting_spellings() -> None:
    rules = Rules.from_settings(
        "classic", {"exchange": "dealer-first", "instant-win": True, "ties": "JOINT"}
    )
    assert rules.exchange == "dealer"
    assert rules.instant_win is True
    assert rules.ties == "joint"


def test_classic_ruleset() -> None:
    rules = Rules.from_settings("classic")
    assert (rules.players, rules.quota, rules.has_spare, rules.teams) == (3, 4, True, None)
    assert rules.units == 3
    assert [rules.unit_of(s) for s in range(3)] == [0, 1, 2]


def test_partnership_ruleset_n10() -> None:
    rules = Rules.from_settings("partnership")
    assert (rules.players, rules.quota, rules.has_spare) == (4, 6, False)
    assert rules.teams == ((0, 2), (1, 3))
    assert rules.units == 2
    assert [rules.unit_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert rules.seats_of(1) == (1, 3)
    # No exchange setting; one given is ignored so one set of defaults fits every ruleset.
    assert "exchange" not in rules.settings()
    assert Rules.from_settings("partnership", {"exchange": "dealer"}) == rules


def test_four_player_ruleset_n11() -> None:
    rules = Rules.from_settings("four-player")
    assert (rules.players, rules.quota, rules.has_spare, rules.teams) == (4, 3, False, None)
    assert rules.units == 4


@pytest.mark.parametrize("name", [n for n, r in RULESETS.items() if r.game == "nines"])
def test_quotas_sum_to_twelve_so_the_total_drops_by_one(name: str) -> None:
    rules = Rules.from_settings(name)
    assert rules.quota * rules.units == 12


def test_rules_round_trip_through_dict() -> None:
    for name in RULESETS:
        rules = Rules.from_settings(name)
        assert Rules.from_dict(rules.to_dict()) == rules
        assert rules.to_dict()["ruleset"] == name
