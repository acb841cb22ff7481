/**
 * Cards moving: a card played flies to the trick from where it was (the hand for one's own,
 * the player's panel for the others'), and a trick taken goes to its winner's panel. Only
 * `transform` and `opacity` move (Web Animations, which the browser runs on its compositor:
 * no layout, no repaint per frame); positions are read once before the table changes and once
 * after, never inside a frame.
 *
 * The hand's cards rise and fall at once, unanimated: moving thirteen of them, by CSS
 * transitions or Web Animations alike, came out as dropped frames in Chromium's own frame
 * accounting even unthrottled, where one or three cards flying did not (bench/activity_frames.py,
 * docs/activity.md "Frames"): the issue's "60 fps or no animation" leaves them unanimated.
 *
 * No animation at all under prefers-reduced-motion, nor on a device too slow for it: while
 * cards move, the frames are timed (requestAnimationFrame, only then), and once a second of
 * motion has been seen (60 frames due at 60 Hz, four or five cards), if more than one frame in
 * ten never came, the table stops animating for the rest of the visit.
 */

const FLY_MS = 220;
const GATHER_MS = 260;
/** One frame at 60 Hz, ms. */
const FRAME_MS = 1000 / 60;
/** Frames due (a second of motion) before judging, and the share missed that turns it off. */
const JUDGE_AFTER = 60;
const MISSED_SHARE = 0.1;

const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)");
let slow = false;
/** While cards moved: the frames due at 60 Hz, and those of them that never came. */
let due = 0;
let missed = 0;
let watching = 0;

export function motionOn(): boolean {
  return !slow && !reduced?.matches;
}

/** Times the frames while an animation runs; judges the device once enough were due. */
function watch(animation: Animation): void {
  watching++;
  animation.finished.catch(() => undefined).finally(() => watching--);
  if (watching > 1) return;
  // The first interval holds the drawing of the table that started the motion (its cost,
  // animated or not): counted from the next.
  let last = 0;
  let seen = 0;
  const step = (now: number) => {
    if (++seen > 2) {
      // Counted in frames due, not frames seen: a slow device shows few frames, each late.
      const frames = Math.max(1, Math.round((now - last) / FRAME_MS));
      due += frames;
      missed += frames - 1;
    }
    last = now;
    if (due >= JUDGE_AFTER && missed / due > MISSED_SHARE) {
      slow = true;
      for (const a of document.getAnimations()) a.finish();
      return;
    }
    if (watching > 0) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}

export interface Before {
  /** The hand's cards, by card. */
  hand: Map<string, DOMRect>;
  /** The players' panels, by seat. */
  seats: Map<number, DOMRect>;
  /** The trick's cards shown, by "<trick number>:<seat>", with their element. */
  trick: Map<string, { el: Element; rect: DOMRect }>;
}

function rectsOf<K>(root: HTMLElement, selector: string, key: (el: HTMLElement) => K): Map<K, DOMRect> {
  const out = new Map<K, DOMRect>();
  for (const el of root.querySelectorAll<HTMLElement>(selector)) out.set(key(el), el.getBoundingClientRect());
  return out;
}

/** Where everything that may move is, before the table changes (one layout, read only). */
export function before(root: HTMLElement): Before {
  const trick = new Map<string, { el: Element; rect: DOMRect }>();
  for (const el of root.querySelectorAll<HTMLElement>(".trick .played")) {
    const face = el.querySelector(".face");
    if (face !== null) trick.set(playedKey(el), { el: face, rect: face.getBoundingClientRect() });
  }
  return {
    hand: rectsOf(root, ".fan .card", (el) => el.dataset.card ?? ""),
    seats: rectsOf(root, ".seat[data-seat]", (el) => Number(el.dataset.seat)),
    trick,
  };
}

function playedKey(el: HTMLElement): string {
  return `${el.closest<HTMLElement>(".trick")?.dataset.trick ?? ""}:${el.dataset.seat ?? ""}`;
}

/** The transform that puts a box of `to`'s size and place at `from`'s. */
function from(fromRect: DOMRect, to: DOMRect): string {
  const dx = fromRect.left + fromRect.width / 2 - (to.left + to.width / 2);
  const dy = fromRect.top + fromRect.height / 2 - (to.top + to.height / 2);
  const scale = to.width > 0 ? fromRect.width / to.width : 1;
  return `translate(${dx.toFixed(1)}px, ${dy.toFixed(1)}px) scale(${scale.toFixed(3)})`;
}

/**
 * After the table changed: each card new on the trick flies in from its player; each card of
 * a trick no longer shown goes to the trick's winner (a copy, over the table, removed at its
 * end). `winner` is the last trick's winner, if any.
 */
export function after(root: HTMLElement, was: Before, winner: number | null): void {
  if (!motionOn()) return;
  const shown = new Set<string>();
  const arrivals: [Element, DOMRect, boolean][] = [];
  for (const el of root.querySelectorAll<HTMLElement>(".trick .played")) {
    const key = playedKey(el);
    shown.add(key);
    if (was.trick.has(key)) continue;
    const card = el.dataset.card ?? "";
    const source = was.hand.get(card) ?? was.seats.get(Number(el.dataset.seat));
    if (source !== undefined) arrivals.push([el, source, was.hand.has(card)]);
  }
  const leaving = [...was.trick].filter(([key]) => !shown.has(key));
  // Reads first (one layout), then the writes: no reading after a write in the same frame.
  const targets = arrivals.map(([figure]) => (figure.querySelector(".face") ?? figure).getBoundingClientRect());
  const panel = winner === null ? null : root.querySelector(`.seat[data-seat="${winner}"]`);
  const goal = panel?.getBoundingClientRect();
  arrivals.forEach(([figure, source, mine], i) => {
    const to = targets[i] as DOMRect;
    watch(
      figure.animate(
        [{ transform: from(source, to), opacity: mine ? 1 : 0.3 }, { transform: "none", opacity: 1 }],
        { duration: FLY_MS, easing: "cubic-bezier(.2,.7,.3,1)" },
      ),
    );
  });
  if (goal === undefined || leaving.length === 0) return;
  for (const [, { el, rect }] of leaving) {
    const ghost = document.createElement("div");
    ghost.className = "ghost";
    ghost.setAttribute("aria-hidden", "true");
    ghost.style.left = `${rect.left}px`;
    ghost.style.top = `${rect.top}px`;
    ghost.style.width = `${rect.width}px`;
    ghost.style.height = `${rect.height}px`;
    ghost.appendChild(el);
    document.body.appendChild(ghost);
    // Into the middle of the winner's panel, at 40% of its size.
    const w = rect.width * 0.4;
    const h = rect.height * 0.4;
    const small = new DOMRect(goal.left + (goal.width - w) / 2, goal.top + (goal.height - h) / 2, w, h);
    const animation = ghost.animate(
      [{ transform: "none", opacity: 1 }, { transform: from(small, rect), opacity: 0 }],
      { duration: GATHER_MS, easing: "ease-in" },
    );
    watch(animation);
    animation.finished.catch(() => undefined).finally(() => ghost.remove());
  }
}
