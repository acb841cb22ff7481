/**
 * Cards drawn by our own code: one SVG per card (corner index, pips or a face letter), the suits
 * as paths from one sprite (never font glyphs: some phones draw ♥ as an emoji), and each card's
 * name for people and screen readers.
 */
import type { Words } from "./i18n";
import type { CardText, SuitLetter } from "./protocol";

export interface CardFace {
  rank: number; // 2..14, 15 for the Joker
  suit: SuitLetter | null; // null for the Joker
}

const RANKS: Record<string, number> = { T: 10, "10": 10, J: 11, Q: 12, K: 13, A: 14 };

/** The engine's text form ("9H", "TS", "10S", "JK") as rank and suit; null if it is none. */
export function parseCard(text: CardText): CardFace | null {
  if (text === "JK") return { rank: 15, suit: null };
  const suit = text.slice(-1) as SuitLetter;
  const head = text.slice(0, -1);
  const rank = RANKS[head] ?? Number(head);
  if (!"HDCS".includes(suit) || !(rank >= 2 && rank <= 14)) return null;
  return { rank, suit };
}

export function isRed(suit: SuitLetter | null): boolean {
  return suit === "H" || suit === "D";
}

/**
 * The four-colour deck (the server's four_colour setting, as the chat's faces draw it,
 * bot/chat/card_faces.py): spades black, hearts red, diamonds blue, clubs green. Its inks stay apart
 * for a deuteranope (issue 46; the figures are in bot/chat/card_faces.py).
 */
let fourColour = false;

export function setFourColour(on: boolean): void {
  fourColour = on;
}

/** A suit's ink, as a class the stylesheet colours: red/black, or the four-colour deck's. */
export function inkClass(suit: SuitLetter): string {
  if (fourColour) return { S: "black", H: "red", D: "blue", C: "green" }[suit];
  return isRed(suit) ? "red" : "black";
}

/** The Joker's one sign, as in chat (issue 46): 🃏, never a star ("favourite" at 22 px). */
export const JOKER_SIGN = "🃏";

/** "10 of hearts", « roi de pique », "Joker". */
export function cardName(text: CardText, w: Words): string {
  const face = parseCard(text);
  if (face === null) return text;
  if (face.suit === null) return w.joker;
  return w.card_name(w.rank_name[face.rank] ?? String(face.rank), w.suit[face.suit]);
}

/** The rank as printed on the card: 2..10, then J Q K A, or V D R A in French. */
function rankMark(face: CardFace, w: Words): string {
  return w.rank_letter[face.rank] ?? String(face.rank);
}

/** The suit paths, in a 10×10 box; drawn once in the page, used by every card. */
export const SUIT_SPRITE = `<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" class="sprite" aria-hidden="true"><defs>
<symbol id="suit-H" viewBox="0 0 10 10"><path d="M5 9.4C3.4 8 .5 5.8.5 3.4.5 1.8 1.7.6 3.1.6 4 .6 4.6 1.1 5 1.8 5.4 1.1 6 .6 6.9.6 8.3.6 9.5 1.8 9.5 3.4 9.5 5.8 6.6 8 5 9.4Z"/></symbol>
<symbol id="suit-D" viewBox="0 0 10 10"><path d="M5 .2 8.8 5 5 9.8 1.2 5Z"/></symbol>
<symbol id="suit-S" viewBox="0 0 10 10"><path d="M5 .3C3.5 2 .6 3.9.6 6.1c0 1.4 1 2.3 2.2 2.3.8 0 1.4-.4 1.7-.9L4 9.7h2l-.5-2.2c.3.5.9.9 1.7.9 1.2 0 2.2-.9 2.2-2.3C9.4 3.9 6.5 2 5 .3Z"/></symbol>
<symbol id="suit-C" viewBox="0 0 10 10"><circle cx="5" cy="2.8" r="2.2"/><circle cx="2.6" cy="6.1" r="2.2"/><circle cx="7.4" cy="6.1" r="2.2"/><path d="M4.6 5.5 4 9.7h2l-.6-4.2Z"/></symbol>
</defs></svg>`;

/** Pip positions for 2..10 as (column, row): column 0 1 2 left to right, row 0..1 top to bottom. */
const PIPS: Record<number, [number, number][]> = {
  2: [[1, 0], [1, 1]],
  3: [[1, 0], [1, 0.5], [1, 1]],
  4: [[0, 0], [2, 0], [0, 1], [2, 1]],
  5: [[0, 0], [2, 0], [1, 0.5], [0, 1], [2, 1]],
  6: [[0, 0], [2, 0], [0, 0.5], [2, 0.5], [0, 1], [2, 1]],
  7: [[0, 0], [2, 0], [1, 0.25], [0, 0.5], [2, 0.5], [0, 1], [2, 1]],
  8: [[0, 0], [2, 0], [1, 0.25], [0, 0.5], [2, 0.5], [1, 0.75], [0, 1], [2, 1]],
  9: [[0, 0], [2, 0], [0, 1 / 3], [2, 1 / 3], [1, 0.5], [0, 2 / 3], [2, 2 / 3], [0, 1], [2, 1]],
  10: [
    [0, 0], [2, 0], [1, 1 / 6], [0, 1 / 3], [2, 1 / 3],
    [0, 2 / 3], [2, 2 / 3], [1, 5 / 6], [0, 1], [2, 1],
  ],
};

function use(id: string, x: number, y: number, size: number, flip = false): string {
  const t = flip ? ` transform="rotate(180 ${x + size / 2} ${y + size / 2})"` : "";
  return `<use href="#${id}" x="${x}" y="${y}" width="${size}" height="${size}"${t}/>`;
}

/**
 * One card face as SVG (viewBox 60×84). The top-left index (rank above suit) is what shows when
 * cards overlap in the fan, so it is large; the centre is pips, a face letter or the Joker's 🃏.
 */
export function cardSvg(text: CardText, w: Words): string {
  const face = parseCard(text);
  const open = `<svg class="face" viewBox="0 0 60 84" aria-hidden="true" focusable="false">`;
  const frame = `<rect class="bg" x=".5" y=".5" width="59" height="83" rx="5"/>`;
  if (face === null) return `${open}${frame}</svg>`;
  if (face.suit === null) {
    return (
      `${open}${frame}<g class="joker">` +
      `<text class="idx" x="4" y="15" font-size="11">${JOKER_SIGN}</text>` +
      `<text x="30" y="54" font-size="30" text-anchor="middle">${JOKER_SIGN}</text>` +
      `<text x="30" y="72" font-size="10" text-anchor="middle" letter-spacing="1">JOKER</text></g></svg>`
    );
  }
  const mark = rankMark(face, w);
  const sid = `suit-${face.suit}`;
  const colour = inkClass(face.suit);
  const narrow = mark.length > 1 ? ` textLength="13" lengthAdjust="spacingAndGlyphs"` : "";
  let body = "";
  const index =
    `<text class="idx" x="${mark.length > 1 ? 2 : 4}" y="16" font-size="15"${narrow}>${mark}</text>` +
    use(sid, 3.5, 19, 10);
  const corner = index;
  const cornerBack = `<g transform="rotate(180 30 42)">${index}</g>`;
  if (face.rank === 14) {
    body = use(sid, 17, 29, 26);
  } else if (face.rank >= 11) {
    body =
      `<rect class="court" x="16" y="12" width="28" height="60" rx="3"/>` +
      `<text class="letter" x="30" y="50" font-size="26" text-anchor="middle">${mark}</text>` +
      use(sid, 25, 54, 10);
  } else {
    // Spread over the card between the corner indices (x 2–15 and 45–58), clear of them:
    // columns 10 apart, rows from near the top edge to near the bottom.
    const pips = PIPS[face.rank] ?? [];
    const size = 8;
    body = pips
      .map(([col, row]) => use(sid, 20 + col * 10 - size / 2, 10 + row * 56, size, row > 0.5))
      .join("");
  }
  return `${open}${frame}<g class="${colour}">${corner}${body}${cornerBack}</g></svg>`;
}

/** The suit alone, for the trump sign and the sheet. */
export function suitSvg(suit: SuitLetter): string {
  return `<svg class="suit ${inkClass(suit)}" viewBox="0 0 10 10" aria-hidden="true" focusable="false"><use href="#suit-${suit}"/></svg>`;
}

/** A card as a small chip (rank and suit side by side), for the last trick, the Spits, the
 * spare: a whole card face at that size would leave its index unreadable. */
export function chipSvg(text: CardText, w: Words): string {
  const face = parseCard(text);
  const open = `<svg class="chip" viewBox="0 0 30 20" aria-hidden="true" focusable="false"><rect class="bg" x=".5" y=".5" width="29" height="19" rx="3"/>`;
  if (face === null) return `${open}</svg>`;
  if (face.suit === null) {
    return `${open}<g class="joker"><text x="15" y="15" font-size="13" text-anchor="middle">${JOKER_SIGN}</text></g></svg>`;
  }
  const mark = rankMark(face, w);
  const narrow = mark.length > 1 ? ` textLength="13" lengthAdjust="spacingAndGlyphs"` : "";
  return (
    `${open}<g class="${inkClass(face.suit)}">` +
    `<text class="idx" x="${mark.length > 1 ? 2 : 4}" y="15" font-size="14"${narrow}>${mark}</text>` +
    `${use(`suit-${face.suit}`, 16.5, 4.5, 11)}</g></svg>`
  );
}
