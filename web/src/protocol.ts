/**
 * The Activity's wire protocol, as /work/wt/ACTIVITY.md (docs/activity.md once merged) states it:
 * the frames each side sends and TABLE, the table model (bot/table_model.py) as JSON.
 * The client renders TABLE; it never computes what is legal or who wins: the server says so.
 */

/** A card in the engine's text form: rank then suit ("9H", "TS" or "10S", "QD"), or "JK". */
export type CardText = string;
/** An action's text form: a card, "JK:win" / "JK:lose", "keep" or "swap". */
export type ActionText = string;
export type SuitLetter = "H" | "D" | "C" | "S";

export interface GameKind {
  name: "nines" | "nein-nine";
  unit: "hand" | "round";
  higher_wins: boolean;
  faces: string;
  has_quota: boolean;
  total_column: boolean;
  signed_scores: boolean;
  hidden_tricks: boolean;
  trump_from_play: boolean;
  joker: boolean;
  counts_down: boolean;
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
  /** The server's four-colour deck setting (issue 46); absent: the two-colour deck. */
  four_colour?: boolean;
}

export interface You {
  user_id: string;
  name: string;
  seat: number | null;
}

export type Lang = "en" | "fr";

export type ServerFrame =
  | { op: "ready"; seq: number; you: You; lang: Lang; table: Table }
  | { op: "table"; seq: number; table: Table }
  | { op: "ack"; key: string }
  | { op: "error"; key: string | null; code: string; message: string }
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

export type ClientFrame = Hello | { op: "act"; key: string; action: ActionText } | { op: "ping" };
