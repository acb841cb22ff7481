/**
 * The web table's wire contract: every frame and TABLE, the table model as JSON.
 * Generated from docs/activity-protocol.schema.json by web/generate.mjs (`npm run generate`):
 * edit the schema, not this file (docs/activity-protocol.md says what each field means).
 */

/**
 * The web table's wire contract (docs/activity-protocol.md): every websocket frame either side sends, and TABLE, the table model (bot/table/table_model.py) as bot/activity/protocol.py's table_json writes it. The one source of the frames' shapes: web/src/protocol.ts is generated from it (cd web && npm run generate) and tests/test_activity_contract.py validates the bot's frames against it.
 */
export type Frame = ServerFrame | ClientFrame;
/**
 * A frame the server sends.
 */
export type ServerFrame = Ready | TableFrame | Ack | ErrorFrame | Waiting | Pong | DailyResult;
/**
 * A Discord id as a string of digits (a JavaScript number cannot hold one).
 */
export type Snowflake = string;
/**
 * A language the bot speaks (bot/locales/).
 */
export type Lang = "en" | "fr";
/**
 * The engine's registered games (engine/games/): tests/test_game_names.py checks this list.
 */
export type GameName = "nines" | "nein-nine";
/**
 * A suit by its letter: hearts, diamonds, clubs, spades.
 */
export type SuitLetter = "H" | "D" | "C" | "S";
/**
 * A card in the engine's text form: rank then suit ("9H", "TS", "QD"), or "JK" for the Joker.
 */
export type CardText = string;
/**
 * An action's text form: a card, "JK:win" or "JK:lose" (a Joker and its call), "keep" or "swap".
 */
export type ActionText = string;
/**
 * A refusal's code (bot/activity/protocol.py ERROR_CODES, which a test ties to this list). For a refused hello: `auth` and `wrong-channel` are final; `retry` (Discord, or the server's budget of calls to it, did not answer) and `busy` (the server is at a cap) are worth the same hello again after `retry_after` seconds; `not-in-instance` a few times (the instance's people lag a launch); `no-game` minutes later; `no-daily` (a hello with `daily`: today's daily cannot be played from here now) is final for the daily, and the page goes back to the channel's table. For an action (`key` set): `not-seated`, `not-your-turn`, `illegal`, `stale` (made on an older table), `bad-request` (not the protocol's, or a key sent again with another move).
 */
export type ErrorCode =
  | "auth"
  | "retry"
  | "busy"
  | "not-in-instance"
  | "wrong-channel"
  | "no-game"
  | "no-daily"
  | "not-seated"
  | "not-your-turn"
  | "illegal"
  | "stale"
  | "bad-request";
/**
 * A frame the page sends.
 */
export type ClientFrame = Hello | Act | LobbyAct | Ping;
/**
 * A lobby move (bot/activity/protocol.py LOBBY_WHATS).
 */
export type LobbyWhat = "join" | "leave" | "cpu" | "uncpu" | "start" | "open";

/**
 * Server: the answer to a hello (or, after `waiting`, the game that opened): who you are and the table.
 */
export interface Ready {
  op: "ready";
  /**
   * The table's frame count in this room: each `table` frame one more.
   */
  seq: number;
  you: You;
  /**
   * The language the server's messages are in (the hello's locale).
   */
  lang: Lang;
  table: Table;
  /**
   * The daily deal this table is (a hello with `daily`): the person's own, which nobody else is sent; null: the channel's table.
   */
  daily: DailyAt | null;
  /**
   * Whether this bot offers the daily deal (its operator set `DAILY_SECRET`): the page offers it then.
   */
  daily_offered: boolean;
}
/**
 * Who the socket signed in as.
 */
export interface You {
  user_id: Snowflake;
  name: string;
  /**
   * The person's seat; null for a watcher.
   */
  seat: number | null;
}
/**
 * TABLE: what one seat (or a watcher) may see of a game at one moment (bot/table/table_model.py TableModel, as table_json writes it). The page draws it; it never computes what is legal or who wins.
 */
export interface Table {
  game_id: number;
  kind: GameKind;
  rules: RulesJson;
  /**
   * A lobby's table has its seats and no cards yet.
   */
  status: "lobby" | "playing" | "finished" | "abandoned";
  /**
   * The seat this table is for; null for a watcher.
   */
  viewer: number | null;
  /**
   * The language whose letters the game's cards carry ("en": K Q J, "fr": R D V), the same for every reader, so a card reads alike in chat and here.
   */
  notation: Lang;
  /**
   * The server's four-colour deck setting (the chat's card faces follow it too): hearts red, diamonds blue, clubs green, spades black.
   */
  four_colour: boolean;
  seats: Seat[];
  /**
   * The hand (or round) being played, from 1 (0 in a lobby).
   */
  hand_number: number;
  phase: "exchange" | "play" | "over";
  dealer: number;
  /**
   * The hand's trump; null for no trump (or none yet, Nein Nine).
   */
  trump: SuitLetter | null;
  /**
   * Nein Nine once trump is set: the Big and the Little Spit; else null.
   */
  spits: [CardText, CardText] | null;
  /**
   * Nines: the seats in the order they decide keep or swap.
   */
  exchange_order: number[];
  /**
   * The exchange decided so far: (seat, swapped).
   */
  exchange: [number, boolean][];
  turn: Turn | null;
  /**
   * The trick in play, at least one card on it; else null.
   */
  trick: Trick | null;
  /**
   * Completed tricks of this hand that may still be shown (Nein Nine: only the last, until the next trick's first card).
   */
  tricks: Trick[];
  /**
   * Every trick of the hand `last_result` reports, while the hand now on the table has no trick completed yet; else empty. A hand's last cards come in the same step as the next deal: without it no table would hold them (PRODUCT 6).
   */
  last_tricks: Trick[];
  /**
   * Each unit's score.
   */
  scores: number[];
  /**
   * Each unit's score before the first hand.
   */
  start_scores: number[];
  sheet: SheetRow[];
  /**
   * A duplicate match's game: its running duplicate result; null for any other game.
   */
  duplicate: Duplicate | null;
  /**
   * The previous hand's result (once over, the last hand's).
   */
  last_result: HandResult | null;
  /**
   * Why this hand is played at all: the units tied when the game would have ended (N8, G9).
   */
  tiebreak: number[] | null;
  /**
   * The winning seats; null while the game goes on.
   */
  winners: number[] | null;
  /**
   * Once the game is over.
   */
  ranking: RankRow[] | null;
  /**
   * The viewer's own hand; null for a watcher.
   */
  hand: Hand | null;
  /**
   * The game's count of stored moves (the index the next one takes): which of two tables is newer, whatever their frames' seq; an action carries the `n` of the table it was made on.
   */
  n: number;
}
/**
 * The game's traits: engine/gametype.py's GameType, field for field.
 */
export interface GameKind {
  name: GameName;
  /**
   * What a deal is called: a hand (Nines) or a round (Nein Nine).
   */
  unit: "hand" | "round";
  /**
   * The highest score wins (Nein Nine); else the lowest.
   */
  higher_wins: boolean;
  /**
   * The deck's face cards' letters, highest first ("KQJ", or "J" in Nein Nine).
   */
  faces: string;
  /**
   * Tricks are scored against quotas (Nines, N7): the sheet's start row and total column follow.
   */
  has_quota: boolean;
  /**
   * Scores are signed and drawn with stones (Nein Nine, G11).
   */
  signed_scores: boolean;
  /**
   * Only the last trick is shown, until the next trick's first card (G11 amended).
   */
  hidden_tricks: boolean;
  /**
   * Trump is set by the first 8 played (Nein Nine) rather than before the deal.
   */
  trump_from_play: boolean;
}
/**
 * The game's rules: engine Rules.to_dict() (its settings, which differ by game) plus `players`, `quota` and `teams`.
 */
export interface RulesJson {
  /**
   * The ruleset the game was started with ("classic", "partnership", "nein-nine", ...).
   */
  ruleset: string;
  /**
   * Seats at the table.
   */
  players: number;
  /**
   * Tricks each unit needs a hand (Nines).
   */
  quota: number;
  /**
   * The seats of each team, or null when everyone plays alone.
   */
  teams: number[][] | null;
  [k: string]: unknown;
}
/**
 * One seat as everybody may see it (bot/table/table_model.py SeatModel).
 */
export interface Seat {
  /**
   * The seat's number, from 0, in play order.
   */
  seat: number;
  /**
   * The name to show, told apart from every other seat's and cleaned; not escaped (the page escapes it).
   */
  name: string;
  /**
   * The score sheet's short code for this seat ("Ale").
   */
  code: string;
  /**
   * The person's Discord id; null for a computer.
   */
  user_id: Snowflake | null;
  /**
   * A computer plays this seat.
   */
  computer: boolean;
  /**
   * A computer's difficulty; null for a person.
   */
  level: string | null;
  /**
   * A person whose seat the computer plays after repeated time-outs.
   */
  away: boolean;
  /**
   * The game's host.
   */
  host: boolean;
  /**
   * The unit (team, or the seat itself) whose score this seat plays for.
   */
  team: number;
  /**
   * Cards in the seat's hand.
   */
  cards_left: number;
  /**
   * This hand's tricks, the seat's own.
   */
  tricks_won: number;
  /**
   * Tricks the seat's unit still needs this hand (0 once met); null where the game has no quota.
   */
  quota_left: number | null;
  /**
   * The person's avatar URL, when they opened the web table; else null.
   */
  avatar: string | null;
}
/**
 * Whose decision is awaited, and until when.
 */
export interface Turn {
  seat: number;
  kind: "exchange" | "play" | "joker-call";
  /**
   * Unix time (seconds) the turn timer runs out; null: no timer.
   */
  deadline: number | null;
}
/**
 * A trick's cards in play order.
 */
export interface Trick {
  /**
   * From 1 within the hand.
   */
  number: number;
  cards: PlayedCard[];
  /**
   * The seat that took it; null while in play.
   */
  winner: number | null;
  /**
   * The card that took it; null while in play.
   */
  winning_card: CardText | null;
}
/**
 * A card on a trick, beside its player.
 */
export interface PlayedCard {
  seat: number;
  card: CardText;
  /**
   * Nein Nine: a Joker's call (G7); null otherwise.
   */
  call: ("win" | "lose") | null;
}
/**
 * One line of the score sheet: a hand played.
 */
export interface SheetRow {
  number: number;
  /**
   * The hand's trump; null for no trump.
   */
  trump: SuitLetter | null;
  dealer: number;
  /**
   * Each unit's score after the hand.
   */
  scores: number[];
  /**
   * All scores added up.
   */
  total: number;
}
/**
 * A duplicate match's game (`/nines start duplicate:on`, issue 47): its running duplicate result, shown with the sheet beside the raw scores. Per unit as `scores` (a team's, partners alike): matchpoints, one for each other player who held the same cards in the same seat in the match's games so far and scored less, half for each tie, out of `tops` (how many others held them; 0 while nobody else has).
 */
export interface Duplicate {
  /**
   * This game's number in the match, from 1.
   */
  game: number;
  /**
   * The match's games: one per seat.
   */
  games: number;
  /**
   * This game's hands scored so far, as the sheet's rows.
   */
  rows: DuplicateRow[];
  /**
   * Each unit's player's matchpoints over the whole match so far.
   */
  matchpoints: number[];
  /**
   * Out of how many, each.
   */
  tops: number[];
}
/**
 * One hand of a duplicate match's game, per unit.
 */
export interface DuplicateRow {
  number: number;
  matchpoints: number[];
  tops: number[];
}
/**
 * How a hand ended (the engine's HandEnded event).
 */
export interface HandResult {
  number: number;
  /**
   * Each unit's tricks.
   */
  tricks_won: number[];
  /**
   * Each unit's score after it.
   */
  scores: number[];
  /**
   * Nines: the spare hand, shown at the end; null where there is none.
   */
  spare: CardText[] | null;
  /**
   * The hand stopped at an instant win.
   */
  instant_win: boolean;
  /**
   * Nein Nine: each unit's 9s taken (empty in Nines).
   */
  nines: number[];
  /**
   * Nein Nine: each unit's points this round (empty in Nines).
   */
  points: number[];
}
/**
 * One line of the final ranking: a unit, its place and score.
 */
export interface RankRow {
  unit: number;
  seats: number[];
  /**
   * From 1; tied scores share a place.
   */
  place: number;
  score: number;
  winner: boolean;
}
/**
 * The viewer's own hand: never in a watcher's table, never another seat's.
 */
export interface Hand {
  seat: number;
  /**
   * In display order: the page needs no card order of its own.
   */
  cards: CardText[];
  /**
   * The actions the server accepts now; empty when it is not this seat's decision.
   */
  legal: ActionText[];
  /**
   * The cards of `legal`'s plays, in hand order: raised on the page.
   */
  playable: CardText[];
  /**
   * The hand this seat put down in an exchange (N4); else null.
   */
  put_down: CardText[] | null;
}
/**
 * The daily deal a table is (issue 47): today's deal of a game, played alone against the computers.
 */
export interface DailyAt {
  game: GameName;
  /**
   * The deal's UTC date (the deals change at 00:00 UTC).
   */
  day: string;
}
/**
 * Server: the table changed (a move by anyone, a seat in the lobby, a timer).
 */
export interface TableFrame {
  op: "table";
  seq: number;
  table: Table;
}
/**
 * Server: the action with this key was played; the `table` frame showing it follows. A resend of the same key gets the first answer again.
 */
export interface Ack {
  op: "ack";
  key: string;
}
/**
 * Server: a refusal, in the person's words. `key` is the refused action's, or null for a refused hello (the socket then closes).
 */
export interface ErrorFrame {
  op: "error";
  key: string | null;
  code: ErrorCode;
  /**
   * What the person reads, in the hello's language.
   */
  message: string;
  /**
   * Seconds: the soonest a `retry` or `busy` is worth trying again.
   */
  retry_after?: number;
}
/**
 * Server: signed in where no game runs yet (one process): the socket stays open, and `ready` comes when a game opens in the channel.
 */
export interface Waiting {
  op: "waiting";
  code: "no-game";
  message: string;
  /**
   * As `Ready.daily_offered`: the page offers today's daily while it waits.
   */
  daily_offered: boolean;
}
/**
 * Server: the answer to a ping.
 */
export interface Pong {
  op: "pong";
}
/**
 * Server: the person's result at today's daily, theirs only (issue 47), the chat's private result: the share of the field beaten, hand by hand, and how the others played. The answer to a hello with `daily` once it is played (the socket stays open, at no table), and at its end to the sockets at its table. Nothing of a deal is sent before the person has finished it.
 */
export interface DailyResult {
  op: "daily-result";
  game: GameName;
  /**
   * The deal's UTC date.
   */
  day: string;
  /**
   * The share of the field beaten over every hand, 0 to 1; null: the first to finish this deal.
   */
  share: number | null;
  /**
   * How many others finished the deal.
   */
  field: number;
  hands: DailyHand[];
  choices: DailyChoice[];
}
/**
 * One hand of a daily, against everyone who held it.
 */
export interface DailyHand {
  number: number;
  /**
   * What the person scored on it.
   */
  points: number;
  /**
   * The share of the others on it the person beat (ties half), 0 to 1; null: nobody else has played it yet.
   */
  share: number | null;
}
/**
 * How the others played one of the person's decisions (one the field played too).
 */
export interface DailyChoice {
  hand: number;
  /**
   * The decision's number among the person's in that hand, from 1.
   */
  decision: number;
  /**
   * What the person did.
   */
  mine: ActionText;
  /**
   * What the most of those who held the hand did.
   */
  common: ActionText;
  /**
   * How many of them did it.
   */
  chose: number;
  /**
   * How many played this decision, the person too.
   */
  field: number;
}
/**
 * Client: the first frame on a socket: who signs in, where.
 */
export interface Hello {
  op: "hello";
  /**
   * The person's OAuth2 token from POST /api/token.
   */
  access_token: string;
  /**
   * The Activity instance (the SDK's instanceId).
   */
  instance_id: string;
  channel_id: Snowflake;
  guild_id: Snowflake | null;
  /**
   * The last table `seq` seen, on a reconnect; null at first.
   */
  last_seq: number | null;
  /**
   * The person's Discord locale ("fr", "en-US"): the language of the server's messages.
   */
  locale: string;
  /**
   * Issue 47: sit at today's daily deal of this game instead of the channel's table, alone against the computers, privately (only this person's sockets get its frames): started, or continued if begun in chat or on the web (one try a day); played already, its result (`daily-result`). Null or absent: the channel's table.
   */
  daily?: GameName | null;
}
/**
 * Client: an action, with the move count (`Table.n`) of the table it was made on: made on an older table, it is refused `stale`. Resent with the same key after a reconnect, it is applied once.
 */
export interface Act {
  op: "act";
  /**
   * The action's idempotency key (a UUID).
   */
  key: string;
  action: ActionText;
  n: number;
}
/**
 * Client: a lobby move, as chat's lobby buttons make it (the host's rights as in chat): `join`, `leave`, `cpu` (add a computer), `uncpu` (remove one), `start`; or `open` from a socket told `waiting` (a lobby opened in its channel, the person its host). Answered `ack` or `error` under its key; the seats come in the next `table`. Not resent after a drop.
 */
export interface LobbyAct {
  op: "lobby";
  /**
   * The move's key (a UUID), which its answer carries.
   */
  key: string;
  what: LobbyWhat;
}
/**
 * Client: a heartbeat (every 10 s); a socket whose pong does not come is replaced.
 */
export interface Ping {
  op: "ping";
}
