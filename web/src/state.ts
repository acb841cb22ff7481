/**
 * The client's one state object (chessground's shape: state, render, inputs). The server's
 * table is whole state; the rest is what this person did on this screen.
 */
import type { LinkStatus, Retry } from "./connection";
import type { ActionText, CardText, DailyAt, DailyResult, GameName, Lang, Table, You } from "./protocol";

export interface State {
  table: Table | null;
  you: You | null;
  lang: Lang;
  link: LinkStatus;
  /** While `link` is "retrying" (or the sign-in is): why, and when the next try starts. */
  retry: Retry | null;
  /** The "tap twice to play" option, kept in localStorage. */
  confirm: boolean;
  /** With `confirm` on: the card tapped once, waiting for its second tap. */
  armed: CardText | null;
  /** The Joker was tapped: its call (win / lose) is being asked. */
  jokerAsk: boolean;
  /** Actions sent and not answered yet (their cards are held back from a second tap). */
  sending: ActionText[];
  /** The last refusal or problem, in the person's words (the server's message). */
  notice: string | null;
  sheetOpen: boolean;
  /** Hand results the person closed, by hand number. */
  closedResult: number | null;
  /** When the current turn was first seen (ms), for the timer bar's full length. */
  turnSeenAt: number;
  turnKey: string;
  /** Whether the bot offers today's daily deal (the server's `daily_offered`). */
  dailyOffered: boolean;
  /** The daily the person asked to sit at (the link's place); null: the channel's table. */
  daily: GameName | null;
  /** The daily the table now shown is (the server's `ready`). */
  dailyAt: DailyAt | null;
  /** The person's result at their daily, once played; shown until they close it. */
  dailyResult: DailyResult | null;
  dailyResultOpen: boolean;
}

const CONFIRM_KEY = "nines.confirm";

export function loadConfirm(): boolean {
  try {
    return localStorage.getItem(CONFIRM_KEY) === "1";
  } catch {
    return false; // storage refused (a sandboxed frame): the option just is not remembered
  }
}

export function saveConfirm(on: boolean): void {
  try {
    localStorage.setItem(CONFIRM_KEY, on ? "1" : "0");
  } catch {
    // as above
  }
}

export function initialState(lang: Lang): State {
  return {
    table: null,
    you: null,
    lang,
    link: "connecting",
    retry: null,
    confirm: loadConfirm(),
    armed: null,
    jokerAsk: false,
    sending: [],
    notice: null,
    sheetOpen: false,
    closedResult: null,
    turnSeenAt: Date.now(),
    turnKey: "",
    dailyOffered: false,
    daily: null,
    dailyAt: null,
    dailyResult: null,
    dailyResultOpen: false,
  };
}
