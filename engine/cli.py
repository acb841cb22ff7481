"""The engine's command line: simulate random games and play one in the terminal (duels between
computer players are the bench's: ``python -m bench.players.duel``).

``simulate`` writes one game record per line (JSON Lines); the same arguments give the same
file, byte for byte.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Final, TextIO

from . import events as ev
from .actions import Action, Play, parse_action
from .cards import Card, sort_hand
from .errors import NinesError
from .game import Game
from .games import RULESETS
from .record import game_record
from .rules import DEFAULTS, TRUMP_PRESETS, Rules, Trump
from .views import SeatView, public_view, seat_view


def _settings(pairs: Sequence[str]) -> dict[str, str]:
    settings = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise NinesError(f"--set takes KEY=VALUE, not {pair!r}.")
        settings[key] = value
    return settings


def random_game(rules: Rules, seed: int) -> Game:
    """A game between players choosing uniformly among the legal actions, from ``seed``."""
    game = Game(rules, seed)
    rand = random.Random(seed).random
    while game.turn is not None:
        seat = game.turn
        legal = game.legal_actions(seat)
        game.apply(seat, legal[int(rand() * len(legal))])
    return game


def simulate(rules: Rules, games: int, seed: int, out: TextIO) -> dict[str, float]:
    seeds = random.Random(f"simulate:{seed}")
    names = [f"Random {i + 1}" for i in range(rules.players)]
    hands = 0
    wins = [0] * rules.players
    # Records are trees: skipping the encoder's cycle check saves a fifth of its time.
    encode = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
    started = time.perf_counter()
    for _ in range(games):
        game = random_game(rules, seeds.getrandbits(32))
        hands += game.hand_number
        for seat in game.winners or ():
            wins[seat] += 1
        out.write(encode(game_record(game, names)))
        out.write("\n")
    seconds = time.perf_counter() - started
    summary: dict[str, float] = {
        "games": games,
        "hands": hands,
        "seconds": seconds,
        "hands_per_second": hands / seconds if seconds else 0.0,
    }
    summary.update({f"wins_seat_{i}": w for i, w in enumerate(wins)})
    return summary


# -- the terminal game -----------------------------------------------------------------------

#: The computer players' level when the person picks none: the bot's default too.
DEFAULT_LEVEL: Final = "normal"
GOODBYE: Final = "Goodbye: the game is abandoned."

_SUITS: Final = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
_JOKER_WORDS: Final = ("jk", "joker", "🃏")
_CALLS: Final = {"win": "win", "w": "win", "lose": "lose", "l": "lose"}


def trump_text(trump: Trump) -> str:
    return "no trump" if trump is None else f"{trump.name.lower()} {trump.symbol}"


def unit_word(rules: Rules) -> str:
    """What a deal is called: a Nines "hand", a Nein Nine "round" (as the bot says)."""
    return rules.kind.unit.capitalize()


def cards_pretty(cards: Sequence[Card]) -> str:
    return " ".join(c.pretty for c in cards)


def action_pretty(action: Action) -> str:
    """An action as the terminal prints it (and reads it back): ``10♣``, ``🃏 win``."""
    if isinstance(action, Play):
        return f"{action.card.pretty} {action.joker}" if action.joker else action.card.pretty
    return str(action)


def describe(event: ev.Event, names: Sequence[str], rules: Rules | None = None) -> str | None:
    """One line for the table, or None for events the table shows otherwise. With ``rules``,
    a Nein Nine round is called a round, and has no trump until the first 8 (G5)."""
    unit = unit_word(rules) if rules is not None else "Hand"
    trump_from_play = rules is not None and rules.kind.trump_from_play
    match event:
        case ev.DealerChosen(rounds=rounds, dealer=dealer):
            draws = "; ".join(
                ", ".join(f"{names[s]} {c.pretty}" for s, c in draw) for draw in rounds
            )
            return f"Draw for first dealer: {draws}. {names[dealer]} deals first."
        case ev.HandStarted(number=number, dealer=dealer, trump=trump):
            shown = "no trump yet (the first 8 sets it)" if trump_from_play else trump_text(trump)
            return f"\n== {unit} {number}: {names[dealer]} deals, trump: {shown} =="
        case ev.ExchangeDecided(seat=seat, swap=swap):
            return f"{names[seat]} {'swaps for the spare' if swap else 'keeps'}."
        case ev.CardPlayed(seat=seat, card=card, joker=joker):
            call = f" ({joker})" if joker else ""
            return f"{names[seat]} plays {card.pretty}{call}."
        case ev.TrumpSet(suit=suit, big_spit=big, little_spit=little):
            return f"Trump is now {trump_text(suit)}: Spits {big.pretty} and {little.pretty}."
        case ev.TrickWon(number=number, winner=winner):
            return f"Trick {number} to {names[winner]} with {event.winning_card.pretty}."
        case ev.HandEnded(tricks_won=tricks, spare=spare):
            won = ", ".join(f"{names[s]} {t}" for s, t in enumerate(tricks))
            line = f"{unit} over. Tricks: {won}."
            if spare is not None:
                line += f" The spare was: {cards_pretty(sort_hand(spare))}."
            return line
        case ev.GameEnded(winners=winners):
            return f"Game over: {' and '.join(names[s] for s in winners)} won."


def read_action(text: str) -> Action:
    """What a person typed, as an action: a card as printed (``10♣``, ``Q♦``), by letters in
    any case (``10C``, ``10c``, ``TC``, ``qd``), suit first too (``♣10``); ``keep``, ``swap``;
    the Joker with its call (``JK win``, ``joker lose``, ``🃏 w``).

    >>> [str(read_action(t)) for t in ("10♣", "10C", "tc", "♣10", "Q♦", "JK win", "🃏 l")]
    ['TC', 'TC', 'TC', 'TC', 'QD', 'JK:win', 'JK:lose']
    """
    cleaned = text.strip().replace("\ufe0f", "")  # emoji presentation of ♥️ ♠️ ...
    words = cleaned.replace(":", " ").split()
    if not words:
        raise ValueError("Type a card, or help.")
    if words[0].lower() in ("keep", "swap"):
        return parse_action(words[0].lower())
    if words[0].lower() in _JOKER_WORDS:
        call = _CALLS.get(words[1].lower()) if len(words) == 2 else None
        if call is None:
            raise ValueError("Play the Joker with its call: JK win, or JK lose.")
        return parse_action(f"JK:{call}")
    code = "".join(_SUITS.get(c, c) for c in "".join(words)).upper()
    if code[:1] in "SHDC" and len(code) > 1:  # suit first: ♣10, C10
        code = code[1:] + code[0]
    code = code.replace("10", "T")
    try:
        return Play(Card.parse(code))
    except ValueError:
        raise ValueError(f"Not a card or a move: {text.strip()!r}. Type help.") from None


def help_text(rules: Rules) -> str:
    if not rules.kind.has_quota:
        goal = (
            "Nein Nine: each trick is 1 point; the 9s you take cost 1, 2, 4 or 8 in all. "
            "The first 8 played makes its suit trump. The highest score wins."
        )
    else:
        each = "a team" if rules.teams else "each"
        goal = (
            f"Nines: a quota of {rules.quota} tricks {each}; a trick over it lowers your "
            "score by 1, a trick under raises it. The game ends at 0: the lowest score wins."
        )
    return "\n".join(
        [
            goal,
            "Play a card by typing it as shown (10♣, Q♦) or with letters: 10C, 10c, TC, qd.",
            "keep / swap: keep your hand, or swap it for the spare hand.",
            "The Joker: JK win or JK lose.",
            "sheet: the score sheet so far · help: this text · quit: leave the game.",
        ]
    )


def sheet_text(game: Game, names: Sequence[str]) -> str:
    """The score sheet (N12): hand (a Nein Nine round), trump, dealer, every score, and in
    Nines their total (Nein Nine's scores add up to nothing telling)."""
    rules = game.rules
    kind = rules.kind
    units = [" & ".join(names[s] for s in rules.seats_of(u)) for u in range(rules.units)]
    width = max(8, *(len(u) for u in units))
    dealer_w = max(6, *(len(n) for n in names))
    word = unit_word(rules).lower()
    num_w = len(word)

    def line(lead: str, scores: Sequence[int], total: int) -> str:
        cells = " ".join(str(s).rjust(width) for s in scores)
        return f"{lead} {cells}" + (f"  {total:>5}" if kind.has_quota else "")

    head = f"{word} trump {'dealer':<{dealer_w}} " + " ".join(u.rjust(width) for u in units)
    lines = [head + ("  total" if kind.has_quota else "")]
    start = game.start_scores
    lines.append(line("start".ljust(num_w + 7 + dealer_w), start, sum(start)))
    for row in game.sheet:
        trump = "NT" if row.trump is None else row.trump.value
        if row.trump is None and kind.trump_from_play:
            trump = "-"  # no 8 was played: no trump at all
        lead = f"{row.number:>{num_w}} {trump:>5} {names[row.dealer]:<{dealer_w}}"
        lines.append(line(lead, row.scores, row.total))
    return "\n".join(lines)


def hand_prompt(view: SeatView, names: Sequence[str]) -> str:
    table = view.table
    lines = []
    if table.trick:
        lines.append("Trick: " + ", ".join(f"{names[s]} {c.pretty}" for s, c in table.trick))
    lines.append("Your hand: " + cards_pretty(sort_hand(view.hand)))
    order = {card: i for i, card in enumerate(sort_hand(view.hand))}
    legal = sorted(view.legal, key=lambda a: order.get(getattr(a, "card", None), -1))  # type: ignore[arg-type]
    lines.append("You may: " + "  ".join(action_pretty(a) for a in legal) + "   (help)")
    return "\n".join(lines)


def play_terminal(
    rules: Rules,
    seed: int,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    *,
    level: str = DEFAULT_LEVEL,
) -> Game:
    """A person (seat 0) against computer players of ``level``, as text."""
    from .players import make_player  # the players are a larger package than the rules

    game = Game(rules, seed)
    names = ["Player 1 (you)"] + [f"Bot {i + 1} ({level})" for i in range(1, rules.players)]
    computers = {seat: make_player(level, seed=seed + seat) for seat in range(1, rules.players)}
    write(f"{rules.name}, against {rules.players - 1} computer players ({level}). Type help.")
    pending: list[ev.Event] = list(game.opening)
    while True:
        for event in pending:
            line = describe(event, names, rules)
            if line:
                write(line)
            if isinstance(event, ev.HandEnded):
                write(sheet_text(game, names))
        pending = []
        if game.turn is None:
            return game
        seat = game.turn
        if seat != 0:
            pending = game.apply(seat, computers[seat].choose(seat_view(game, seat)))
            continue
        write(hand_prompt(seat_view(game, 0), names))
        try:
            text = read("> ").strip()
        except EOFError:  # Ctrl-D, or the end of piped moves
            write(GOODBYE)
            return game
        if not text:  # nothing typed: the prompt again, with the moves it takes now
            continue
        if text.lower() in ("quit", "exit"):
            write("Game abandoned.")
            return game
        if text.lower() in ("help", "?", "h"):
            write(help_text(rules))
            continue
        if text.lower() == "sheet":
            write(sheet_text(game, names))
            continue
        try:
            pending = game.apply(0, read_action(text))
        except (NinesError, ValueError) as error:
            write(str(error))


def pick_level(
    levels: Sequence[str],
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> str:
    """Asks for the computer players' level; Enter keeps the default."""
    while True:
        answer = read(f"Computer level: {', '.join(levels)} [{DEFAULT_LEVEL}]? ")
        answer = answer.strip().lower() or DEFAULT_LEVEL
        if answer in levels:
            return answer
        write(f"Choose one of: {', '.join(levels)}.")


#: What each setting takes, for ``--help`` (a test checks every example value is accepted).
SETTING_HELP: Final = {
    "trumps": "a preset (" + ", ".join(TRUMP_PRESETS) + ") or letters such as H,S,D,C,NT",
    "exchange": "left or dealer: who decides first whether to swap for the spare",
    "ties": "play-on or joint: a tie for the lowest score plays on, or shares the win",
    "instant_win": "on or off: win as soon as a score reaches 0, mid-hand",
    "start": "the starting score, 3 to 21",
    "rounds": "Nein Nine: the number of rounds, 1 to 30",
    "limit": "Nein Nine: the game ends at + or - this score, 1 to 30",
}


def rules_help() -> str:
    """The rulesets and settings ``--rules`` and ``--set`` take, for ``--help``."""
    lines = ["rulesets (--rules NAME):"]
    for name, ruleset in RULESETS.items():
        lines.append(f"  {name:<12} {ruleset.summary}")
        lines.append(f"  {'':<12} settings: {', '.join(ruleset.settings)}")
    lines.append("settings (--set KEY=VALUE, repeatable; default in brackets):")
    for key, text in SETTING_HELP.items():
        lines.append(f"  {key:<12} {text} [{DEFAULTS[key]}]")
    return "\n".join(lines)


def main(argv: Sequence[str]) -> int:
    from .players import DIFFICULTIES

    epilog, raw = rules_help(), argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog="python -m engine", description=__doc__, epilog=epilog, formatter_class=raw
    )
    commands = parser.add_subparsers(dest="command", required=True)
    sim = commands.add_parser(
        "simulate",
        help="play random games and write their records",
        epilog=epilog,
        formatter_class=raw,
    )
    play = commands.add_parser(
        "play", help="play a game in the terminal", epilog=epilog, formatter_class=raw
    )
    for sub in (sim, play):
        sub.add_argument("--rules", default="classic", help="ruleset name (default classic)")
        sub.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
        sub.add_argument("--seed", type=int, default=None)
    sim.add_argument("--games", type=int, default=100)
    play.add_argument(
        "--level",
        choices=DIFFICULTIES,
        default=None,
        help=f"the computer players' level (asked if not given; default {DEFAULT_LEVEL})",
    )
    sim.add_argument("--out", default="-", help="JSON Lines file, - for standard output")

    args = parser.parse_args(list(argv))
    try:
        rules = Rules.from_settings(args.rules, _settings(args.set))
    except NinesError as error:
        print(error, file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    if args.command == "play":
        try:
            # Asked only of a person at a terminal: piped moves are not taken for a level.
            asked = sys.stdin.isatty() and args.level is None
            level = pick_level(DIFFICULTIES) if asked else args.level or DEFAULT_LEVEL
            play_terminal(rules, seed, level=level)
        except (EOFError, KeyboardInterrupt):  # at the level question, or Ctrl-C
            print("\n" + GOODBYE)
        return 0
    if args.out == "-":
        summary = simulate(rules, args.games, seed, sys.stdout)
    else:
        with open(args.out, "w", encoding="utf-8") as out:
            summary = simulate(rules, args.games, seed, out)
    print(
        f"{args.games} {rules.name} games, {summary['hands']:.0f} hands in "
        f"{summary['seconds']:.2f} s: {summary['hands_per_second']:.0f} hands per second; "
        "wins by seat: "
        + ", ".join(f"{summary[f'wins_seat_{i}']:.0f}" for i in range(rules.players)),
        file=sys.stderr,
    )
    return 0


__all__ = ["main", "public_view", "random_game", "simulate"]
