"""Duplicate matches between players: ``python -m bench.players.duel --a hard --b rules``.

Hands: every deal is played once with the baseline ``b`` in every seat, and once per position
with the candidate ``a`` in that position (a seat, or a team in the partnership game) and the
rest unchanged; the per-hand edge is the candidate's tricks (Nein Nine: points) minus the
baseline's in the same position on the same cards. Every player seeds each decision from the
view, so both arms see the same random numbers wherever they reach the same position.
Games: whole games with the candidate in one position (rotating) against baselines.
Later hands (``--later``): every deal is a game's second hand, the first played by the
baseline's arm, so the players have seen a whole hand of each seat's plays (``sampling.
rule_shares``), as at a real table from the second hand on.
Race (four players each for themselves): every deal starts from a score sheet on which the
search counts the chance to win (someone at 5 or below), and a hand scores the chance to win
the game after it (``race.game_value``): decisions near the end of a game, paired, far less
noisy than whole games.

The field: the players in the seats that are not the candidate's, the same in both arms.
By default it is the baseline itself (``b`` in every other seat). ``--field`` names a field
the candidate does not model (issue 19): ``ismcts`` (ISMCTS-2000), ``hard``, ``mixed``
(rules, normal and ISMCTS-2000 in turn) or ``human`` (``human.HumanLikePlayer``, each seat
a different person); ``--opponents`` gives any field as specs, comma-separated, seat by
seat in turn. The report names the field.
"""

from __future__ import annotations

import argparse
import copy
import math
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, fields, replace

from engine import RULESETS as ENGINE_RULESETS
from engine import Rules, find_ruleset
from engine.actions import Exchange
from engine.events import HandEnded
from engine.game import Game
from engine.players.base import Player
from engine.players.levels import LEVELS, SEARCH, Level
from engine.players.nines import RACE_BELOW
from engine.players.race import game_value
from engine.players.rules_player import RulesPlayer
from engine.players.search import SearchPlayer
from engine.views import seat_view

from .omniscient import OmniscientPlayer
from .random_player import RandomPlayer

NINES_TRUMPS = ("H", "D", "C", "S", "NT")
RULESETS = tuple(ENGINE_RULESETS)  # every registered game's

#: Named fields: the other seats' players, comma-separated, given to the seats in turn.
FIELDS = {
    "ismcts": "ismcts:2000",
    "hard": "hard",
    "mixed": "rules,normal,ismcts:2000",
    "human": "human",
}


def hard_with(seed: int, **changes: object) -> SearchPlayer:
    """The hardest level with some of its settings changed (``Level``'s fields)."""
    known = {f.name for f in fields(Level)}
    for key in changes:
        if key not in known:
            raise ValueError(f"Level has no setting {key!r}.")
    player = SearchPlayer(seed, replace(LEVELS["hard"], **changes))  # type: ignore[arg-type]
    player.name = "hard"
    return player


def make(spec: str, seed: int) -> Player:
    """A player from a short spec: random, rules, easy, normal, hard, omniscient, human,
    search:WORLDS[:INFERENCE_TRIES[:POOL_DRAWS_PER_WORLD]], ismcts:ITERATIONS, and the
    search's experiments (see ``SearchPlayer``): endgame:CARDS[:SOLVED] (hard, worlds solved
    exactly from CARDS in hand, SOLVED of them from CARDS and twice as many a card fewer;
    teams), blind (hard with its playouts by the rule alone, as before ``sighted``),
    with:KEY=VALUE[+...]
    (hard with any of ``SearchPlayer``'s settings changed),
    ismctsr:ITERATIONS[:TRIES] (ISMCTS with rule-based rollouts),
    nein:WORLDS[:TRIES] (Nein Nine search, ``nein.NeinPlayer``), partner:WORLDS[:ENDGAME[:POOL]]
    (partnership search, ``partnership.PartnershipPlayer``)."""
    from engine.players import DIFFICULTIES, make_player

    from .human import HumanLikePlayer
    from .ismcts import IsmctsPlayer

    name, _, arg = spec.partition(":")
    if name in DIFFICULTIES:
        return make_player(name, seed)
    player: Player
    if name == "random":
        player = RandomPlayer(seed)
    elif name == "rules":
        player = RulesPlayer(seed)
    elif name == "omniscient":
        player = OmniscientPlayer(seed)
    elif name == "human":
        player = HumanLikePlayer(seed)
    elif name == "search":
        worlds, tries, pool = [*arg.split(":"), "", "", ""][:3]
        level = replace(
            SEARCH, worlds=int(worlds or 24), inference=int(tries or 8), pool=int(pool or 12)
        )
        player = SearchPlayer(seed, level)
    elif name == "endgame":  # hard, worlds solved exactly from CARDS in hand
        cards, solved = [*arg.split(":"), "", ""][:2]
        player = hard_with(seed, endgame=int(cards or 5), solved_worlds=int(solved or 0))
    elif name == "blind":  # hard, its playouts by the rule alone, not judged by the world
        player = hard_with(seed, sighted=False)
    elif name == "with":  # hard with settings changed: with:sighted=false+worlds=40
        player = hard_with(seed, **dict(setting(item) for item in arg.split("+") if item))
    elif name == "ismctsr":  # rule-based rollouts, worlds the best fit of TRIES draws
        iterations, tries = [*arg.split(":"), "", ""][:2]
        player = IsmctsPlayer(
            seed, iterations=int(iterations or 200), rule_rollouts=True, tries=int(tries or 8)
        )
    elif name == "ismcts":
        player = IsmctsPlayer(seed, iterations=int(arg or 2000))
    elif name == "nein":  # Nein Nine search: WORLDS, each the best fit of TRIES draws
        from .nein_player import NeinPlayer

        worlds, tries = [*arg.split(":"), "", ""][:2]
        player = NeinPlayer(seed, worlds=int(worlds or 16), tries=int(tries or 4))
    elif name == "partner":  # partnership: WORLDS from voids alone, solved from ENDGAME cards
        from .partnership import ENDGAME, PartnershipPlayer

        worlds, endgame, pool = [*arg.split(":"), "", "", ""][:3]
        player = PartnershipPlayer(
            seed, worlds=int(worlds or 40), endgame=int(endgame or ENDGAME), pool=int(pool or 1)
        )
    else:
        raise ValueError(f"Unknown player {spec!r}.")
    player.name = spec
    return player


def setting(item: str) -> tuple[str, object]:
    """``key=value`` of a ``with:`` spec: an int, a float, true/false or text."""
    key, sep, text = item.partition("=")
    if not sep:
        raise ValueError(f"A setting is key=value, not {item!r}.")
    for kind in (int, float):
        try:
            return key, kind(text)
        except ValueError:
            pass
    if text in ("true", "false"):
        return key, text == "true"
    return key, text


@dataclass
class Tally:
    edges: list[float] = field(default_factory=list)
    a_scores: list[float] = field(default_factory=list)
    b_scores: list[float] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)
    play_times: list[float] = field(default_factory=list)
    exchange_times: list[float] = field(default_factory=list)
    b_times: list[float] = field(default_factory=list)

    def merge(self, other: Tally) -> None:
        for name in self.__dataclass_fields__:
            getattr(self, name).extend(getattr(other, name))


def positions(rules: Rules) -> list[tuple[int, ...]]:
    return [tuple(t) for t in rules.teams] if rules.teams else [(s,) for s in range(rules.players)]


def field_specs(b: str, opponents: str | None) -> list[str]:
    """The other seats' player specs, given to seats in turn (seat s gets s modulo their
    number): a field name, comma-separated specs, or the baseline alone by default."""
    text = FIELDS.get(opponents or "", opponents or b)
    return [spec.strip() for spec in text.split(",") if spec.strip()]


def field_text(b: str, opponents: str | None, players: int) -> str:
    specs = field_specs(b, opponents)
    if len(specs) == 1:
        return f"field: {specs[0]} in every other seat"
    seats = ", ".join(f"seat {s} {specs[s % len(specs)]}" for s in range(players))
    return f"field: the other seats of {seats}"


def deal_rules(ruleset: str, index: int, settings: dict[str, object]) -> Rules:
    if "trumps" not in find_ruleset(ruleset).settings:  # Nein Nine: trump set by the first 8
        return Rules.from_settings(ruleset, settings)
    # Vary the trump deal by deal (the first hand of a game always has the first trump).
    return Rules.from_settings(
        ruleset, {**settings, "trumps": NINES_TRUMPS[index % len(NINES_TRUMPS)]}
    )


def _decide(player: Player, game: Game, seat: int) -> object:
    if isinstance(player, OmniscientPlayer):
        return player.choose_in(game, seat)
    return player.choose(seat_view(game, seat))


def play(
    game: Game,
    seats: Sequence[Player],
    timed: set[int],
    tally: Tally,
    one_hand: bool,
) -> HandEnded | None:
    """Play to the end of the hand (or game); times the decisions of the seats in ``timed``."""
    while not game.over:
        seat = game.turn
        assert seat is not None
        start = time.perf_counter()
        action = _decide(seats[seat], game, seat)
        spent = time.perf_counter() - start
        if seat in timed:
            (tally.exchange_times if isinstance(action, Exchange) else tally.play_times).append(
                spent
            )
        for event in game.apply(seat, action):  # type: ignore[arg-type]
            if one_hand and isinstance(event, HandEnded):
                return event
    return None


def late_sheet(seed: int) -> tuple[int, ...]:
    """The first score sheet on which the search counts the chance to win (someone at
    ``RACE_BELOW`` or below, nobody out), in four-player games of rule-based players."""
    while True:
        game = Game(Rules.from_settings("four-player"), seed)
        seats = [RulesPlayer(s) for s in range(4)]
        while not game.over:
            seat = game.turn
            assert seat is not None
            for event in game.apply(seat, seats[seat].choose(seat_view(game, seat))):
                if isinstance(event, HandEnded) and 0 < min(event.scores) <= RACE_BELOW:
                    return event.scores
        seed += 1  # that game ended straight from above: the next one


def new_game(rules: Rules, seed: int, sheet: tuple[int, ...] | None) -> Game:
    game = Game(rules, seed)
    if sheet is not None:  # the first hand starts from this sheet instead of the start score
        game.scores = list(sheet)
        game.hand_start_scores = sheet
    return game


def score_of(result: HandEnded, rules: Rules, seats: tuple[int, ...], race: bool = False) -> float:
    if race:
        return game_value(result.scores, seats[0])
    if not rules.kind.has_quota:  # Nein Nine: tricks less the 9s taken
        return float(sum(result.points[s] for s in seats))
    return float(sum(result.tricks_won[s] for s in seats))


Job = tuple[str, str, str, str, dict[str, object], int, list[int], bool, bool, bool]


def seat_player(spec: str, field: list[str], seat: int, pos: tuple[int, ...], seed: int) -> Player:
    """``spec`` in the seats of ``pos``, the field in the others (in turn, by seat)."""
    return make(spec if seat in pos else field[seat % len(field)], seed + seat)


@dataclass
class Openings:
    """The game at the hand a deal measures: its first, or with ``later`` its second, once
    the seats' players (specs, seeded as in the match) played the first, whose tricks every
    seat then sees. Each arm gets its own copy of the one opening for its first-hand seats."""

    rules: Rules
    seed: int  # the game's
    sheet: tuple[int, ...] | None
    later: bool
    player_seed: int
    games: dict[tuple[str, ...], Game] = field(default_factory=dict)

    def start(self, specs: list[str]) -> Game:
        key = tuple(specs)
        if key not in self.games:
            game = new_game(self.rules, self.seed, self.sheet)
            if self.later:
                first = [make(spec, self.player_seed + s) for s, spec in enumerate(specs)]
                play(game, first, set(), Tally(), True)
                if game.over:  # the first hand ended the game: measure a first hand instead
                    game = new_game(self.rules, self.seed, self.sheet)
            self.games[key] = game
        return copy.deepcopy(self.games[key])


def run_deals(args: Job) -> Tally:
    a_spec, b_spec, opp_spec, ruleset, settings, seed, indices, rotate, race, later = args
    tally = Tally()
    for i in indices:
        rules = deal_rules(ruleset, i, settings)
        n = rules.players
        game_seed = seed * 1_000_003 + i
        sheet = late_sheet(game_seed + 700_000) if race else None
        shared: dict[tuple[int, ...], float] = {}
        places = positions(rules)
        if rotate:  # one position a deal (for slow baselines): still paired, half the cost
            places = [places[i % len(places)]]
        field = field_specs(b_spec, opp_spec)
        # With ``later`` the baseline's arm plays the first hand, and both arms the second.
        openings = Openings(rules, game_seed, sheet, later, seed)
        if field == [b_spec]:
            others = [make(b_spec, seed + s) for s in range(n)]
            tb = Tally()
            result = play(openings.start([b_spec] * n), others, set(range(n)), tb, True)
            tally.b_times.extend(tb.play_times)
            assert result is not None
            shared = {pos: score_of(result, rules, pos, race) for pos in positions(rules)}
        edge = 0.0
        for pos in places:
            specs_b = [b_spec if s in pos else field[s % len(field)] for s in range(n)]
            seats_a = [seat_player(a_spec, field, s, pos, seed) for s in range(n)]
            res_a = play(openings.start(specs_b), seats_a, set(pos), tally, True)
            assert res_a is not None
            a = score_of(res_a, rules, pos, race)
            if pos in shared:
                b = shared[pos]
            else:
                seats_b = [seat_player(b_spec, field, s, pos, seed) for s in range(n)]
                tb = Tally()
                res_b = play(openings.start(specs_b), seats_b, set(pos), tb, True)
                tally.b_times.extend(tb.play_times)
                assert res_b is not None
                b = score_of(res_b, rules, pos, race)
            tally.a_scores.append(a)
            tally.b_scores.append(b)
            edge += a - b
        tally.edges.append(edge / len(places))
    return tally


def run_games(args: Job) -> Tally:
    a_spec, b_spec, opp_spec, ruleset, settings, seed, indices, _rotate, _race, _later = args
    tally = Tally()
    for i in indices:
        rules = Rules.from_settings(ruleset, settings)
        n = rules.players
        pos = positions(rules)[i % len(positions(rules))]
        field = field_specs(b_spec, opp_spec)
        seats = [make(a_spec if s in pos else field[s % len(field)], seed + s) for s in range(n)]
        game = Game(rules, seed * 1_000_003 + 500_000 + i)
        play(game, seats, set(pos), tally, False)
        assert game.winners is not None
        units = {rules.unit_of(s) for s in game.winners}
        tally.wins.append(1.0 / len(units) if rules.unit_of(pos[0]) in units else 0.0)
    return tally


def mean_ci(values: list[float]) -> tuple[float, float]:
    if not values:
        return 0.0, 0.0
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, 0.0
    return m, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def percentiles(values: list[float]) -> str:
    if not values:
        return "none"
    ms = sorted(v * 1000 for v in values)

    def at(q: float) -> float:
        return ms[min(len(ms) - 1, int(q * len(ms)))]

    return (
        f"p50 {at(0.5):.1f} ms, p95 {at(0.95):.1f} ms, p99 {at(0.99):.1f} ms, "
        f"max {ms[-1]:.1f} ms (n={len(ms)}, mean {statistics.fmean(ms):.1f} ms)"
    )


def _chunks(n: int, parts: int) -> list[list[int]]:
    return [list(range(k, n, parts)) for k in range(parts) if k < n]


def match(
    a: str,
    b: str,
    *,
    ruleset: str = "classic",
    deals: int = 100,
    games: int = 0,
    opponents: str | None = None,
    settings: dict[str, object] | None = None,
    seed: int = 1,
    workers: int = 1,
    rotate: bool = False,
    race: bool = False,
    later: bool = False,
) -> Tally:
    """Run a duplicate match; ``workers`` > 1 spreads it over processes. ``later``: each
    deal is a game's second hand (the first played by the baseline's arm), so the players
    have seen how each seat played a whole hand."""
    if race and ruleset != "four-player":
        raise ValueError("Race deals are for the four-player game (its score model).")
    if race and later:
        raise ValueError("Race deals start from a late score sheet: not a second hand.")
    opp = opponents or b
    cfg = settings or {}
    tally = Tally()
    parts = max(1, workers) * 4
    jobs_d: list[Job] = [
        (a, b, opp, ruleset, cfg, seed, c, rotate, race, later) for c in _chunks(deals, parts)
    ]
    jobs_g: list[Job] = [
        (a, b, opp, ruleset, cfg, seed, c, rotate, race, later) for c in _chunks(games, parts)
    ]
    if workers <= 1:
        for job in jobs_d:
            tally.merge(run_deals(job))
        for job in jobs_g:
            tally.merge(run_games(job))
        return tally
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for t in pool.map(run_deals, jobs_d):
            tally.merge(t)
        for t in pool.map(run_games, jobs_g):
            tally.merge(t)
    return tally


def report(
    tally: Tally,
    a: str,
    b: str,
    ruleset: str,
    opponents: str | None,
    race: bool = False,
    later: bool = False,
) -> str:
    unit = "win chance" if race else "tricks" if find_ruleset(ruleset).kind.has_quota else "points"
    fmt = ".4f" if race else ".3f"
    players = Rules.from_settings(ruleset).players
    lines = [f"{ruleset}: {a} vs {b}; {field_text(b, opponents, players)}"]
    if tally.edges:
        which = " (each a game's second hand)" if later else ""
        m, h = mean_ci(tally.edges)
        mean_a, mean_b = statistics.fmean(tally.a_scores), statistics.fmean(tally.b_scores)
        lines.append(
            f"  hands: {len(tally.edges)} duplicate deals{which}, edge {m:+{fmt}} {unit}/hand "
            f"(95% CI {m - h:+{fmt}} .. {m + h:+{fmt}}); {a} {mean_a:{fmt}}"
            f", {b} {mean_b:{fmt}} {unit}/hand in the same positions"
        )
    if tally.wins:
        p = statistics.fmean(tally.wins)
        h = 1.96 * math.sqrt(max(p * (1 - p), 1e-9) / len(tally.wins))
        lines.append(
            f"  games: {a} won {100 * p:.1f}% of {len(tally.wins)} "
            f"(95% CI {100 * (p - h):.1f} .. {100 * (p + h):.1f}%)"
        )
    lines.append(f"  decision time {a} (play): {percentiles(tally.play_times)}")
    if tally.exchange_times:
        lines.append(f"  decision time {a} (exchange): {percentiles(tally.exchange_times)}")
    if tally.b_times:
        lines.append(f"  decision time {b} (play): {percentiles(tally.b_times)}")
        ratio = statistics.fmean(tally.play_times) / max(statistics.fmean(tally.b_times), 1e-9)
        lines.append(f"  mean play-decision time {a}/{b}: {ratio:.3f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="duel", description="Duplicate match between computer players."
    )
    parser.add_argument(
        "--a",
        default="hard",
        help="candidate (random, rules, easy, normal, hard, omniscient, human, "
        "search:WORLDS, ismcts:ITERATIONS, endgame:, blind, with:, nein:, partner:, "
        "ismctsr:)",
    )
    parser.add_argument("--b", default="rules", help="baseline, same choices")
    parser.add_argument(
        "--opponents",
        "--field",
        default=None,
        help=f"the other seats: a field ({', '.join(FIELDS)}) or specs, comma-separated, "
        "given to the seats in turn (default: --b in every other seat); fair: the baseline "
        "and then every named field the candidate does not model, one report each",
    )
    parser.add_argument("--ruleset", default="classic", help=f"one of {RULESETS}, or all")
    parser.add_argument("--deals", type=int, default=100, help="duplicate deals (hands)")
    parser.add_argument("--games", type=int, default=0, help="whole games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rotate", action="store_true", help="one position a deal instead of every position"
    )
    parser.add_argument(
        "--race",
        action="store_true",
        help="four-player: deals start from late score sheets and score the chance to win",
    )
    parser.add_argument(
        "--later",
        action="store_true",
        help="each deal is a game's second hand, the first played by the baseline's arm",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a rules setting, e.g. --set instant_win=on",
    )
    args = parser.parse_args(argv)
    settings: dict[str, object] = dict(s.split("=", 1) for s in args.set)
    for ruleset in RULESETS if args.ruleset == "all" else (args.ruleset,):
        fields = fair_fields(args.a, args.b) if args.opponents == "fair" else [args.opponents]
        for table in fields:
            started = time.perf_counter()
            tally = match(
                args.a,
                args.b,
                ruleset=ruleset,
                deals=args.deals,
                games=args.games,
                opponents=table,
                settings=settings,
                seed=args.seed,
                workers=args.workers,
                rotate=args.rotate,
                race=args.race,
                later=args.later,
            )
            print(report(tally, args.a, args.b, ruleset, table, args.race, args.later))
            seconds = time.perf_counter() - started
            print(f"  ({seconds:.0f} s wall, {args.workers} workers)", flush=True)
    return 0


def fair_fields(a: str, b: str) -> list[str | None]:
    """The baseline in every other seat, then each named field that is neither the
    candidate nor the baseline (a field of the candidate's own kind is its own model)."""
    fields: list[str | None] = [None]
    fields += [name for name, specs in FIELDS.items() if specs not in (a, b)]
    return fields


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
