/**
 * The Activity's wire protocol, as ACTIVITY.md and docs/activity.md state it:
 * the frames each side sends and TABLE, the table model (bot/table_model.py) as JSON.
 * The client renders TABLE; it never computes what is legal or who wins: the server says so.
 */

/** A card in the engine's text form: rank then suit ("9H", "TS" or "10S", "QD"), or "JK". */
export type CardText = string;
/** An action's text form: a card, "JK:win" / "JK:lose", "keep" or "swap". */
export type ActionText = string;
export type SuitLetter = "H" | "D" | "C" | "S";

/** The engine's registered games (engine/games/): tests/test_game_names.py checks this list. */
export type GameName = "nines" | "nein-nine";

/** The game's traits, engine/gametype.py's GameType field for field (a test checks them). */
export interface GameKind {
  name: GameName;
  unit: "hand" | "round";
  higher_wins: boolean;
  faces: string;
  has_quota: boolean;
  signed_scores: boolean;
  hidden_tricks: boolean;
  trump_from_play: boolean;
}

export interface RulesJson {
  ruleset: string;
  players: number;
  quota: number;
  teams: number[][] | null;
  [setting: string]: unknown;
}

export interface Seat {
  seat: number;
  name: string;
  code: string;
  user_id: string | null;
  computer: boolean;
  level: string | null;
  away: boolean;
  host: boolean;
  team: number;
  cards_left: number;
  tricks_won: number;
  quota_left: number | null;
  avatar: string | null;
}

export interface PlayedCard {
  seat: number;
  card: CardText;
  call: "win" | "lose" | null;
}

export interface Trick {
  number: number;
  cards: PlayedCard[];
  winner: number | null;
  winning_card: CardText | null;
}

export interface Turn {
  seat: number;
  kind: "exchange" | "play" | "joker-call";
  deadline: number | null;
}

export interface Hand {
  seat: number;
  cards: CardText[];
  legal: ActionText[];
  playable: CardText[];
  put_down: CardText[] | null;
}

export interface SheetRow {
  number: number;
  trump: SuitLetter | null;
  dealer: number;
  scores: number[];
  total: number;
}

export interface HandResult {
  number: number;
  tricks_won: number[];
  scores: number[];
  spare: CardText[] | null;
  instant_win: boolean;
  nines: number[];
  points: number[];
}

export interface RankRow {
  unit: number;
  seats: number[];
  place: number;
  score: number;
  winner: boolean;
}

export interface Table {
  game_id: number;
  kind: GameKind;
  rules: RulesJson;
  status: "lobby" | "playing" | "finished" | "abandoned";
  viewer: number | null;
  seats: Seat[];
  hand_number: number;
  phase: "exchange" | "play" | "over";
  dealer: number;
  trump: SuitLetter | null;
  spits: [CardText, CardText] | null;
  exchange_order: number[];
  exchange: [number, boolean][];
  turn: Turn | null;
  trick: Trick | null;
  tricks: Trick[];
  /** The hand `last_result` reports, trick by trick, until this hand's first trick is taken:
   * its last cards came with the next deal (empty otherwise). */
  last_tricks: Trick[];
  scores: number[];
  start_scores: number[];
  sheet: SheetRow[];
  last_result: HandResult | null;
  tiebreak: number[] | null;
  winners: number[] | null;
  ranking: RankRow[] | null;
  hand: Hand | null;
  /**
   * The language whose letters the game's cards carry ("en": K Q J, "fr": R D V), the same for
   * every reader so a card reads alike in chat and here (TableModel.notation); absent from
   * older servers: the person's language then.
   */
  notation?: string;
  /** The game's count of stored moves (TableModel.n): an action carries the `n` of the table
   * it was made on. */
  n: number;
}

export interface You {
  user_id: string;
  name: string;
  seat: number | null;
}

export type Lang = "en" | "fr";

/**
 * A refusal's code (bot/activity/protocol.py ERROR_CODES). `retry`: Discord (or the server's
 * budget of calls to it) did not answer, the same hello is worth sending again after
 * `retry_after` seconds; `busy`: the server is at a cap, likewise; `not-in-instance` may be
 * tried again a few times (the instance's people lag a launch); `auth` and `wrong-channel` are
 * final.
 */
export type ErrorCode =
  | "auth"
  | "retry"
  | "busy"
  | "not-in-instance"
  | "wrong-channel"
  | "no-game"
  | "not-seated"
  | "not-your-turn"
  | "illegal"
  | "stale"
  | "bad-request";

export type ServerFrame =
  | { op: "ready"; seq: number; you: You; lang: Lang; table: Table }
  | { op: "table"; seq: number; table: Table }
  | { op: "ack"; key: string }
  /**
   * A refusal. `code` says whether trying again can help: for a refused hello (`key` null),
   * `auth` and `wrong-channel` are final, `retry` (Discord did not answer the server's checks)
   * and `busy` (the server is at a cap) are tried again no sooner than `retry_after` seconds
   * when given, `not-in-instance` a few times, `no-game` minutes later (connection.ts).
   */
  | { op: "error"; key: string | null; code: ErrorCode; message: string; retry_after?: number }
  /** Signed in where no game runs yet: the socket stays open; `ready` comes when one opens. */
  | { op: "waiting"; code: "no-game"; message: string }
  | { op: "pong" };

export interface Hello {
  op: "hello";
  access_token: string;
  instance_id: string;
  channel_id: string;
  guild_id: string | null;
  last_seq: number | null;
  locale: string;
}

/** An action, with the move count (`Table.n`) of the table it was made on: made on an older
 * table, the server refuses it as out of date, unless nothing moved since. */
export interface Act {
  op: "act";
  key: string;
  action: ActionText;
  n: number;
}

/** What a web table may do in its game's lobby (the host's rights as in chat). */
export type LobbyWhat = "join" | "leave" | "cpu" | "uncpu" | "start" | "open";

/** A lobby move: answered `ack` or `error` under its key; the next table shows the seats. */
export interface LobbyAct {
  op: "lobby";
  key: string;
  what: LobbyWhat;
}

export type ClientFrame = Hello | Act | LobbyAct | { op: "ping" };
