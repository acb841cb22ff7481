/**
 * The table as DOM: `render(root, state)` turns the state into each region's markup and
 * replaces a region only when its markup changed, keeping keyboard focus on the element that
 * had it (a card keeps focus across the tables that follow a play). Inputs are delegated in
 * main.ts; elements say what they do with `data-act` (an action), `data-card` or `data-ui`.
 *
 * Layout is CSS (style.css): regions are grid areas; a seat's place around the table is a class
 * (pos-left / pos-top / pos-right / pos-bottom) counted from the viewer's seat.
 */
import { cardName, cardSvg, chipSvg, parseCard, setFourColour, suitSvg } from "./cards";
import { WORDS, type Words } from "./i18n";
import { after, before, motionOn } from "./motion";
import type { ActionText, CardText, DailyResult, Duplicate, GameName, HandResult, Seat, Table, Trick } from "./protocol";
import type { State } from "./state";

type Pos = "left" | "top" | "right" | "bottom";

export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Where each seat sits on screen, the viewer (or seat 1 for a watcher) at the bottom. */
export function positions(table: Table): Map<number, Pos> {
  const n = table.seats.length;
  const me = table.viewer ?? 0;
  const order: Pos[] = n === 4 ? ["bottom", "left", "top", "right"] : ["bottom", "left", "right"];
  const map = new Map<number, Pos>();
  for (let k = 0; k < n; k++) map.set((me + k) % n, order[k] ?? "top");
  return map;
}

function seatName(table: Table, seat: number): string {
  return table.seats[seat]?.name ?? "?";
}

/** A signed number as people write it: +2, 0, −1 (a minus sign, not a hyphen). */
function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "0";
}

/** A number as people write it, a negative one with a minus sign (−3), as chat writes it. */
function num(n: number): string {
  return n < 0 ? `\u2212${-n}` : String(n);
}

function scoreText(table: Table, score: number): string {
  if (!table.kind.signed_scores) return num(score);
  // G10: a positive score as light stones, a negative one as dark stones.
  const stones = (score > 0 ? "○" : "●").repeat(Math.min(Math.abs(score), 9));
  return `${signed(score)}${stones ? ` <span class="stones" aria-hidden="true">${stones}</span>` : ""}`;
}

function trumpHtml(table: Table, w: Words): string {
  if (table.status === "lobby") return "";
  if (table.trump === null) {
    const words = table.kind.trump_from_play ? w.no_trump_yet : w.no_trump;
    return `<div class="trump none" aria-label="${esc(words)}"><span class="tlabel">${esc(words)}</span></div>`;
  }
  const spits = table.spits
    ? `<span class="spits"><span class="spit" title="${esc(w.big_spit)}">${esc(w.big_spit)} ${mini(table.spits[0], w)}</span>` +
      `<span class="spit" title="${esc(w.little_spit)}">${esc(w.little_spit)} ${mini(table.spits[1], w)}</span></span>`
    : "";
  return (
    `<div class="trump" aria-label="${esc(`${w.trump}${w.colon}${w.suit[table.trump]}`)}">` +
    `<span class="tlabel">${esc(w.trump)}</span>${suitSvg(table.trump)}${spits}</div>`
  );
}

function barHtml(s: State, t: Table, w: Words): string {
  // A daily (issue 47) says so, and whose it is: the person's alone.
  const daily = s.dailyAt !== null && s.dailyAt.game === t.kind.name;
  const game = daily ? w.daily_of(w.game[t.kind.name]) : w.game[t.kind.name];
  const mine = daily ? `<span class="private">${esc(w.daily_private)}</span>` : "";
  const unit = t.kind.unit === "hand" ? w.unit_hand(t.hand_number) : w.unit_round(t.hand_number);
  const dealer = t.status === "playing" ? ` · ${esc(w.dealer)} ${esc(seatName(t, t.dealer))}` : "";
  return (
    `<div class="title"><span class="game">${esc(game)}</span>` +
    (t.hand_number > 0 ? `<span class="unit">${esc(unit)}${dealer}</span>` : "") +
    mine +
    `</div>${trumpHtml(t, w)}` +
    `<button type="button" class="tool" data-ui="sheet" aria-expanded="${s.sheetOpen}">${esc(w.sheet)}</button>`
  );
}

/** Whether the server said there is no game in the channel (the page waits for one). */
function noGame(s: State): boolean {
  return s.link === "waiting" || s.retry?.why === "no-game";
}

/** The seconds (at least 1) until the link's next try. */
function secondsLeft(s: State): number {
  return Math.max(1, Math.ceil(((s.retry?.at ?? 0) - Date.now()) / 1000));
}

/** No game in this channel yet, with no table to show: said in the middle of the page. */
function noGameHtml(s: State, w: Words): string {
  if (!noGame(s)) return "";
  const later =
    s.retry?.why === "no-game"
      ? `<p class="later">${esc(w.no_game_later(Math.max(1, Math.round(secondsLeft(s) / 60))))}</p>` +
        `<button type="button" class="tool" data-ui="look-now">${esc(w.look_now)}</button>`
      : "";
  // Waiting here (one server): a lobby can be opened from the page, as /nines start does.
  const open =
    s.link === "waiting"
      ? `<div class="choices"><button type="button" class="choice" data-ui="lobby-open">${esc(w.open_lobby)}</button></div>`
      : "";
  return `<div class="nogame"><p class="say">${esc(w.no_game)}</p>${later}${open}${dailyChoices(s, w)}</div>`;
}

const GAMES: GameName[] = ["nines", "nein-nine"];

/** Today's daily deal, one button a game (issue 47), while the bot offers it; at a daily, the
 * way back to the channel's table. */
function dailyChoices(s: State, w: Words): string {
  if (!s.dailyOffered) return "";
  const back =
    s.daily !== null
      ? `<button type="button" class="choice quiet" data-ui="daily-leave">${esc(w.daily_back)}</button>`
      : "";
  const games = GAMES.filter((game) => game !== s.daily)
    .map((game) => `<button type="button" class="choice" data-ui="daily-${game}">${esc(w.game[game])}</button>`)
    .join("");
  return (
    `<div class="daily"><p class="dtitle">${esc(w.daily)}</p><p class="dhint">${esc(w.daily_hint)}</p>` +
    `<div class="choices">${games}${back}</div></div>`
  );
}

/** An action of the person's or the field's, in words: a card by its name, keep or swap. */
function actionWords(text: ActionText, w: Words): string {
  if (text === "keep") return w.keep;
  if (text === "swap") return w.swap;
  // A Joker with its call is the call's own words ("Joker wins"), as its button says it.
  if (text === "JK:win") return w.joker_win;
  if (text === "JK:lose") return w.joker_lose;
  return cardName(text, w);
}

/** The person's result at their daily: the chat's, line for line (cogs/nines/daily_table.py). */
function dailyResultHtml(r: DailyResult, w: Words, atTable: boolean): string {
  const pct = (share: number) => w.daily_percent(Math.round(100 * share));
  const hands = r.hands
    .map((h) => `<li>${esc(w.daily_hand(h.number, signed(h.points), h.share === null ? "—" : pct(h.share)))}</li>`)
    .join("");
  const choices = r.choices
    .map(
      (c) =>
        `<li>${esc(w.daily_choice(c.hand, c.decision, actionWords(c.mine, w), pct(c.chose / c.field), actionWords(c.common, w)))}</li>`,
    )
    .join("");
  // The date whole on its line: no-break hyphens (2026‑12‑03).
  const title = w.daily_title(w.game[r.game], r.day.replace(/-/g, "\u2011"));
  return (
    `<div class="sheet dailyresult" role="dialog" aria-modal="true" aria-label="${esc(title)}"><div class="sheetbox">` +
    `<h2>${esc(title)}</h2><div class="scroll">` +
    `<p class="share">${esc(r.share === null ? w.daily_first : w.daily_share(pct(r.share), r.field))}</p>` +
    `<ul class="dhands">${hands}</ul>` +
    (choices ? `<p>${esc(w.daily_choices)}</p><ul class="dchoices">${choices}</ul>` : "") +
    `<p class="dhint">${esc(w.daily_footer)}</p></div>` +
    `<div class="choices"><button type="button" class="choice" data-ui="daily-leave">${esc(w.daily_back)}</button>` +
    (atTable ? `<button type="button" class="choice quiet" data-ui="daily-close">${esc(w.close)}</button>` : "") +
    `</div></div></div>`
  );
}

/** What the link is doing, in words: why it waits and for how long (whole seconds). */
function linkLines(s: State, w: Words): string[] {
  const retry = s.retry;
  if (s.link === "waiting") return [w.no_game];
  if (retry === null) return [];
  const secs = secondsLeft(s);
  switch (retry.why) {
    case "drop":
      return [w.reconnecting(secs)];
    case "retry":
    case "token":
      return [w.retry_discord(secs)];
    case "busy":
      return [w.retry_busy(secs)];
    case "not-in-instance":
      return [w.retry_not_in(secs)];
    case "no-game":
      return [w.no_game, w.no_game_later(Math.max(1, Math.round(secs / 60)))];
  }
}

function noticeHtml(s: State, t: Table | null, w: Words): string {
  const lines: string[] = [];
  if (s.link === "connecting" && t === null && s.retry === null) lines.push(w.connecting);
  // With no table, no game is said in the middle of the page (noGameHtml) instead.
  const link = t === null && noGame(s) ? [] : linkLines(s, w);
  if (s.link === "stopped") lines.push(w.stopped);
  if (s.notice) lines.push(s.notice);
  if (t?.tiebreak && t.status === "playing") lines.push(w.tiebreak);
  // The link's state is no error: said calmly, with a way to look again now for a game.
  const calm =
    link.map((line) => `<p class="calm">${esc(line)}</p>`).join("") +
    (s.retry?.why === "no-game" && t !== null
      ? `<p class="calm"><button type="button" class="tool" data-ui="look-now">${esc(w.look_now)}</button></p>`
      : "");
  return calm + lines.map((line) => `<p>${esc(line)}</p>`).join("");
}

function timerHtml(): string {
  return `<div class="timer" aria-hidden="true"><div class="fill"></div></div><span class="secs"></span>`;
}

function seatHtml(t: Table, seat: Seat, pos: Pos, w: Words, isViewer: boolean): string {
  const turn = t.turn?.seat === seat.seat && t.status === "playing";
  const score = t.scores[seat.team] ?? 0;
  const tags: string[] = [];
  // The team first: who is whose partner must always show, however narrow the seat.
  if (t.rules.teams) tags.push(w.team(seat.team));
  if (t.status === "lobby" && seat.host) tags.push(w.host);
  if (seat.computer) tags.push(w.computer);
  // Nines' exchange: who kept and who swapped is public (N4).
  const decided = t.exchange.find(([s]) => s === seat.seat);
  if (decided && t.status === "playing") tags.push(decided[1] ? w.swapped : w.kept);
  if (seat.away) tags.push(w.away);
  if (isViewer) tags.push(w.you);
  // The first letter or digit, not a leading emoji (a computer's "🤖 Normal bot").
  const initial = esc(/[\p{L}\p{N}]/u.exec(seat.name)?.[0]?.toUpperCase() ?? "?");
  const avatar = seat.avatar
    ? `<img src="${esc(seat.avatar)}" alt="" loading="lazy" referrerpolicy="no-referrer">`
    : "";
  const quota =
    seat.quota_left === null
      ? ""
      : `<span class="quota${seat.quota_left === 0 ? " met" : ""}">${esc(
          seat.quota_left === 0 ? w.quota_met : w.quota_left(seat.quota_left),
        )}</span>`;
  const playing = t.status === "playing";
  return (
    `<section class="seat pos-${pos}${turn ? " turn" : ""}${seat.away ? " away" : ""}" data-seat="${seat.seat}" aria-label="${esc(seat.name)}">` +
    `<div class="who"><span class="avatar s${seat.seat}" aria-hidden="true">${initial}${avatar}</span>` +
    `<span class="name">${esc(seat.name)}</span></div>` +
    (tags.length ? `<div class="tags">${esc(tags.join(" · "))}</div>` : "") +
    `<div class="stats">` +
    (playing
      ? `<span class="left" aria-label="${esc(w.cards_left(seat.cards_left))}"><span class="back" aria-hidden="true"></span>${seat.cards_left}</span>` +
        `<span class="tricks">${esc(w.tricks(seat.tricks_won))}</span>${quota}`
      : "") +
    `<span class="score"><span class="lbl">${esc(w.score)}</span> ${scoreText(t, score)}</span></div>` +
    (turn && t.turn?.deadline != null ? timerHtml() : "") +
    `</section>`
  );
}

function mini(card: CardText, w: Words, who?: string): string {
  const label = who === undefined ? cardName(card, w) : `${who}${w.colon}${cardName(card, w)}`;
  return `<span class="mini" role="img" aria-label="${esc(label)}" title="${esc(label)}">${chipSvg(card, w)}</span>`;
}

function callText(call: "win" | "lose" | null, w: Words): string {
  return call === null ? "" : call === "win" ? w.called_win : w.called_lose;
}

function trickHtml(t: Table, trick: Trick, w: Words, pos: Map<number, Pos>, done: boolean): string {
  const cards = trick.cards
    .map((played) => {
      const who = seatName(t, played.seat);
      const call = callText(played.call, w);
      const label = `${who}${w.colon}${cardName(played.card, w)}${call ? ` (${call})` : ""}`;
      const won = done && trick.winner === played.seat;
      return (
        `<figure class="played pos-${pos.get(played.seat) ?? "top"}${won ? " won" : ""}" data-seat="${played.seat}" ` +
        `data-card="${esc(played.card)}" role="img" aria-label="${esc(label)}">` +
        `${cardSvg(played.card, w)}<figcaption>${esc(who)}${call ? ` · ${esc(call)}` : ""}</figcaption></figure>`
      );
    })
    .join("");
  const caption =
    done && trick.winner !== null
      ? `<p class="caption">${esc(`${w.trick_n(trick.number)}, ${w.won_by(seatName(t, trick.winner))}`)}</p>`
      : "";
  return (
    `<div class="trick n${t.seats.length}${done ? " done" : ""}" data-trick="${t.hand_number}.${trick.number}" ` +
    `aria-label="${esc(`#${trick.number}`)}">${cards}</div>${caption}`
  );
}

function lastTrickHtml(t: Table, trick: Trick, w: Words): string {
  const cards = trick.cards.map((p) => mini(p.card, w, seatName(t, p.seat))).join("");
  const head =
    trick.winner !== null ? `${w.last_trick}, ${w.won_by(seatName(t, trick.winner))}` : w.last_trick;
  return (
    `<div class="lasttrick" data-trick="last.${trick.number}"><span class="lt">${esc(head)}</span>` +
    `<span class="minis">${cards}</span></div>`
  );
}

function allTricksHtml(t: Table, w: Words, tricks: Trick[] = t.tricks): string {
  const rows = tricks
    .map((trick) => {
      const cards = trick.cards.map((p) => mini(p.card, w, seatName(t, p.seat))).join("");
      const who = trick.winner !== null ? esc(seatName(t, trick.winner)) : "";
      return `<li><span class="tn">${esc(w.trick_n(trick.number))}</span><span class="minis">${cards}</span><span class="tw">${who}</span></li>`;
    })
    .join("");
  return `<details class="alltricks"><summary>${esc(w.all_tricks(t.kind.unit))}</summary><ol>${rows}</ol></details>`;
}

/** The scores as the hand of `r` began (the sheet's row before it, or the start). */
function scoresBefore(t: Table, r: HandResult): number[] {
  return t.sheet.find((row) => row.number === r.number - 1)?.scores ?? t.start_scores;
}

/**
 * A hand's outcome, as chat's summary gives it: each player's (or team's) tricks against the
 * quota and what they did to the score (Nines), the 9s and points (Nein Nine), the score; then
 * the hand's last trick and every trick of it (`tricks`: the hand's, when the model has them).
 */
function resultHtml(t: Table, r: HandResult, w: Words, closable: boolean, tricks: Trick[] = []): string {
  const nines = r.nines.length > 0;
  const points = r.points.length > 0;
  const quota = t.kind.has_quota;
  const before = scoresBefore(t, r);
  const head =
    `<tr><th scope="col"></th><th scope="col">${esc(w.tricks(2).replace(/^\d+\s*/, ""))}</th>` +
    (quota ? `<th scope="col">${esc(w.change)}</th>` : "") +
    (nines ? `<th scope="col">${esc(w.nines_taken)}</th>` : "") +
    (points ? `<th scope="col">${esc(w.points)}</th>` : "") +
    `<th scope="col">${esc(w.score)}</th></tr>`;
  // One row per unit: a team's two players share theirs (their tricks count together).
  const units = t.rules.teams ?? t.seats.map((seat) => [seat.seat]);
  const rows = units
    .map((seats, u) => {
      const names = seats.map((s) => `<span class="nw">${esc(seatName(t, s))}</span>`).join(esc(w.and));
      const won = seats.reduce((sum, s) => sum + (r.tricks_won[s] ?? 0), 0);
      const change = (r.scores[u] ?? 0) - (before[u] ?? 0);
      const moved = r.instant_win && change === 0 ? esc(w.unchanged) : signed(change);
      return (
        `<tr><th scope="row" class="nm">${names}</th>` +
        `<td>${quota ? `${won}/${t.rules.quota}` : won}</td>` +
        (quota ? `<td>${moved}</td>` : "") +
        (nines ? `<td>${seats.map((s) => r.nines[s] ?? 0).join("+")}</td>` : "") +
        (points ? `<td>${seats.map((s) => signed(r.points[s] ?? 0)).join(" ")}</td>` : "") +
        `<td>${scoreText(t, r.scores[u] ?? 0)}</td></tr>`
      );
    })
    .join("");
  const last = tricks[tricks.length - 1];
  const spare = r.spare
    ? `<p class="spare">${esc(w.spare + w.colon)}<span class="minis">${r.spare.map((c) => mini(c, w)).join("")}</span></p>`
    : "";
  return (
    `<div class="result"><div class="rhead"><h2>${esc(w.hand_over(t.kind.unit, r.number))}</h2>` +
    (closable ? `<button type="button" class="tool" data-ui="close-result">${esc(w.close)}</button>` : "") +
    `</div>` +
    (r.instant_win ? `<p>${esc(w.instant_win)}</p>` : "") +
    `<table class="grid">${head}${rows}</table>${spare}` +
    (last ? lastTrickHtml(t, last, w) : "") +
    (tricks.length > 1 ? allTricksHtml(t, w, tricks) : "") +
    `</div>`
  );
}

function endHtml(t: Table, w: Words): string {
  const winners = (t.winners ?? []).map((s) => seatName(t, s));
  const names = winners.join(w.and);
  const rows = (t.ranking ?? [])
    .map(
      (row) =>
        `<li class="${row.winner ? "winner" : ""}"><span class="place">${esc(w.place(row.place))}</span>` +
        `<span class="nm">${esc(row.seats.map((s) => seatName(t, s)).join(w.and))}</span>` +
        `<span class="pts">${scoreText(t, row.score)}</span></li>`,
    )
    .join("");
  return (
    `<div class="end"><h2>${esc(w.game_over)}</h2>` +
    (names ? `<p class="winners">${esc(w.win(names))}</p>` : "") +
    `<ol class="ranking">${rows}</ol>` +
    // The game's last card stands on the table too: the last hand's tricks, as the model
    // gives them, the last one shown, every one a tap away.
    (t.tricks.length > 0 ? lastTrickHtml(t, t.tricks[t.tricks.length - 1] as Trick, w) : "") +
    (t.tricks.length > 1 ? allTricksHtml(t, w) : "") +
    (t.last_result ? resultHtml(t, t.last_result, w, false) : "") +
    `</div>`
  );
}

function centerHtml(s: State, t: Table, w: Words, pos: Map<number, Pos>): string {
  if (t.status === "lobby") return `<p class="wait">${esc(w.lobby)}</p>`;
  if (t.status === "abandoned") return `<p class="wait">${esc(w.abandoned)}</p>`;
  if (t.status === "finished") return endHtml(t, w);
  const last = t.tricks.length > 0 ? t.tricks[t.tricks.length - 1] : undefined;
  if (t.trick !== null) {
    // A hand's last cards may be followed at once by the next hand's lead (computers play
    // on): a line says the previous hand is over beside the new trick until its first trick
    // is taken, as the chat hand keeps its result, so its end is never skipped.
    // The ended hand's last trick stands beside the new one until a trick of it is taken.
    const unread = !last && t.last_result && s.closedResult !== t.last_result.number;
    const ended = last ? undefined : t.last_tricks[t.last_tricks.length - 1];
    return (
      trickHtml(t, t.trick, w, pos, false) +
      (last ? lastTrickHtml(t, last, w) : ended ? lastTrickHtml(t, ended, w) : "") +
      (unread && t.last_result
        ? `<p class="result brief">${esc(w.hand_over(t.kind.unit, t.last_result.number))}</p>`
        : "")
    );
  }
  if (last) return trickHtml(t, last, w, pos, true);
  if (t.last_result && s.closedResult !== t.last_result.number) {
    return resultHtml(t, t.last_result, w, true, t.last_tricks);
  }
  // The summary closed: the ended hand's last trick still stands until the next card.
  const ended = t.last_tricks[t.last_tricks.length - 1];
  if (ended) return trickHtml(t, ended, w, pos, true);
  return `<div class="trick n${t.seats.length}"></div>`;
}

/**
 * The lobby, from the page (issue 46): how many seats are taken and what this person may do:
 * join or leave; the host adds or removes a computer and starts, as in chat.
 */
function lobbyHtml(s: State, t: Table, w: Words): string {
  const players = t.rules.players;
  const me = s.you === null ? undefined : t.seats.find((seat) => seat.user_id === s.you?.user_id);
  const host = me?.host === true;
  const full = t.seats.length >= players;
  const button = (what: string, words: string, quiet = false) =>
    `<button type="button" class="choice${quiet ? " quiet" : ""}" data-ui="lobby-${what}">${esc(words)}</button>`;
  const choices: string[] = [];
  if (me === undefined && !full) choices.push(button("join", w.join));
  if (host && !full) choices.push(button("cpu", w.add_cpu, true));
  if (host && t.seats.some((seat) => seat.computer)) choices.push(button("uncpu", w.remove_cpu, true));
  if (host && full) choices.push(button("start", w.start));
  if (me !== undefined && !host) choices.push(button("leave", w.leave, true));
  const hint = me === undefined ? (full ? w.lobby : w.lobby_join_hint) : host ? (full ? w.lobby_full_hint : "") : w.lobby_wait_host;
  return (
    `<p class="say">${esc(w.lobby_seats(t.seats.length, players))}</p>` +
    (hint ? `<p class="say quiet">${esc(hint)}</p>` : "") +
    (choices.length ? `<div class="choices">${choices.join("")}</div>` : "")
  );
}

function promptHtml(s: State, t: Table, w: Words): string {
  if (t.status === "lobby") return lobbyHtml(s, t, w);
  const hand = t.hand;
  if (hand === null || t.status !== "playing") return "";
  const mine = t.turn?.seat === hand.seat;
  const legal = new Set(hand.legal);
  if (legal.has("keep") || legal.has("swap")) {
    return (
      `<p class="say">${esc(w.your_exchange)}</p><div class="choices">` +
      `<button type="button" class="choice" data-act="keep">${esc(w.keep)}</button>` +
      `<button type="button" class="choice" data-act="swap">${esc(w.swap)}</button></div>`
    );
  }
  if (s.jokerAsk && legal.has("JK:win")) {
    return (
      `<p class="say">${esc(w.joker_prompt)}</p><div class="choices">` +
      `<button type="button" class="choice" data-act="JK:win">${esc(w.joker_win)}</button>` +
      `<button type="button" class="choice" data-act="JK:lose">${esc(w.joker_lose)}</button>` +
      `<button type="button" class="choice quiet" data-ui="cancel">${esc(w.cancel)}</button></div>`
    );
  }
  if (s.armed !== null) return `<p class="say">${esc(w.tap_again(cardName(s.armed, w)))}</p>`;
  if (mine && legal.size > 0) return `<p class="say">${esc(w.your_turn)}</p>`;
  if (t.turn) {
    const name = seatName(t, t.turn.seat);
    return `<p class="say quiet">${esc(t.turn.kind === "exchange" ? w.exchange_of(name) : w.turn_of(name))}</p>`;
  }
  return "";
}

/** One card of the hand: its class (playable, dimmed or idle; armed) and whether it may be tapped. */
interface HandCard {
  card: CardText;
  cls: string;
  can: boolean;
}

function handCards(s: State, t: Table): HandCard[] {
  const hand = t.hand;
  if (hand === null) return [];
  const playable = new Set(hand.playable);
  const myTurn = hand.legal.length > 0 && !hand.legal.includes("keep");
  return hand.cards.map((card) => {
    // Tapped and sent (answered or not, its table not come yet): played, never tappable again.
    const sent = s.sending.some((a) => a.split(":")[0] === card);
    const can = playable.has(card) && !sent;
    const armed = s.armed === card || (s.jokerAsk && parseCard(card)?.suit === null);
    const how = sent ? "sent" : can ? "playable" : myTurn ? "dimmed" : "idle";
    return { card, can, cls: `card ${how}${armed ? " armed" : ""}` };
  });
}

function cardButton(c: HandCard, w: Words): string {
  return (
    `<button type="button" class="${c.cls}" data-card="${esc(c.card)}" aria-label="${esc(cardName(c.card, w))}"` +
    `${c.can ? "" : ` aria-disabled="true"`}>${cardSvg(c.card, w)}</button>`
  );
}

/** Hands longer than this are laid in two rows where the screen is narrow (style.css): a
 * 13-card fan in one row on a phone leaves each card a sliver. */
const ONE_ROW = 8;

/** How many cards the fan's first row holds (all of them when one row will do). */
function firstRow(n: number): number {
  return n > ONE_ROW ? Math.ceil(n / 2) : n;
}

function handHtml(s: State, t: Table, w: Words): string {
  const hand = t.hand;
  if (t.status !== "playing") return ""; // the game is not on: no hand, the middle gets the room
  if (hand === null) return `<p class="watch">${esc(w.watching)}</p>`;
  const cards = handCards(s, t).map((c) => cardButton(c, w));
  const split = firstRow(cards.length);
  const rows = [cards.slice(0, split), cards.slice(split)].filter((row) => row.length > 0);
  return (
    `<div class="fan" role="group" aria-label="${esc(w.your_hand)}">` +
    rows.map((row) => `<div class="fanrow">${row.join("")}</div>`).join("") +
    `</div>${putDownHtml(t, w)}`
  );
}

function putDownHtml(t: Table, w: Words): string {
  const put = t.hand?.put_down;
  return put ? `<p class="putdown">${esc(w.put_down + w.colon)}<span class="minis">${put.map((c) => mini(c, w)).join("")}</span></p>` : "";
}

/**
 * The hand, changed in place where it can be: a card played is taken out and the others only
 * change class, so their SVG is neither parsed nor painted again, keyboard focus stays where
 * it was. Anything else (a new deal, the language, the exchange)
 * rebuilds the region.
 */
function patchHand(root: HTMLElement, s: State, t: Table, w: Words): void {
  const el = root.querySelector<HTMLElement>('[data-region="hand"]');
  const fan = el?.querySelector<HTMLElement>(".fan");
  const want = handCards(s, t);
  const shape = `${s.lang}|${t.notation ?? ""}|${putDownHtml(t, w)}`;
  const have = fan ? [...fan.querySelectorAll<HTMLElement>(".card")] : [];
  const kept = new Set(want.map((c) => c.card));
  const staying = have.filter((b) => kept.has(b.dataset.card ?? ""));
  const rows = fan ? [...fan.querySelectorAll<HTMLElement>(".fanrow")] : [];
  const split = firstRow(want.length);
  const rowsWanted = split < want.length ? 2 : 1;
  const inPlace =
    rows.length >= rowsWanted &&
    el !== null && fan !== null && fan !== undefined && t.status === "playing" && t.hand !== null &&
    previous.get("hand-shape") === shape && staying.length === want.length &&
    staying.every((b, i) => b.dataset.card === want[i]?.card);
  if (!inPlace) {
    previous.set("hand-shape", shape);
    patch(root, "hand", handHtml(s, t, w));
    return;
  }
  const hadFocus = fan.contains(document.activeElement);
  for (const b of have) if (!kept.has(b.dataset.card ?? "")) b.remove();
  // The cards left laid in the rows they now need, moved (not redrawn) between them.
  const [first, second] = rows as [HTMLElement, HTMLElement | undefined];
  staying.forEach((b, i) => {
    const row = i < split || second === undefined ? first : second;
    const before = i === 0 || i === split ? null : (staying[i - 1] ?? null);
    if (b.parentElement !== row || b.previousElementSibling !== before) row.appendChild(b);
  });
  for (const row of rows.slice(rowsWanted)) if (row.childElementCount === 0) row.remove();
  staying.forEach((b, i) => {
    const c = want[i] as HandCard;
    if (b.className !== c.cls) b.className = c.cls;
    if (c.can) b.removeAttribute("aria-disabled");
    else b.setAttribute("aria-disabled", "true");
  });
  // The card just played is gone: keep the keyboard in the hand, on its first card.
  if (hadFocus && !fan.contains(document.activeElement)) staying[0]?.focus();
  previous.delete("hand"); // the markup is no longer what was last written: rebuilt next time
}

function sheetHtml(t: Table, w: Words): string {
  const units = t.rules.teams ?? t.seats.map((seat) => [seat.seat]);
  const unitName = (seats: number[]) => seats.map((s) => t.seats[s]?.code ?? "?").join("+");
  const head =
    `<tr><th scope="col">${esc(w.sheet_hand)}</th><th scope="col">${esc(w.sheet_trump)}</th>` +
    `<th scope="col">${esc(w.sheet_dealer)}</th>` +
    units.map((u) => `<th scope="col">${esc(unitName(u))}</th>`).join("") +
    `</tr>`;
  const start =
    t.kind.has_quota && t.start_scores.length
      ? `<tr class="start"><td></td><td></td><td></td>${t.start_scores.map((v) => `<td>${num(v)}</td>`).join("")}` +
        `</tr>`
      : "";
  const rows = t.sheet
    .map(
      (row) =>
        `<tr><td>${row.number}</td><td>${row.trump ? suitSvg(row.trump) : esc(w.no_trump_short)}</td>` +
        `<td>${esc(t.seats[row.dealer]?.code ?? "?")}</td>` +
        row.scores.map((v) => `<td>${scoreText(t, v)}</td>`).join("") +
        `</tr>`,
    )
    .join("");
  return (
    `<div class="sheet" role="dialog" aria-modal="true" aria-label="${esc(w.sheet)}"><div class="sheetbox">` +
    `<h2>${esc(w.sheet)}</h2><div class="scroll"><table class="grid">${head}${start}${rows}</table>` +
    (t.duplicate ? duplicateHtml(t.duplicate, units.map(unitName), w) : "") +
    `</div><button type="button" class="tool" data-ui="sheet-close">${esc(w.close)}</button></div></div>`
  );
}

/**
 * A duplicate match's running result under the sheet, as the chat shows it (issue 47): each
 * hand's share of the others who held the same cards in the same seat that the player beat,
 * "-" while nobody else has, and the whole match so far; the first game has nobody to compare.
 */
function duplicateHtml(d: Duplicate, heads: string[], w: Words): string {
  const title = `<h3>${esc(w.dup_title(d.game, d.games))}</h3>`;
  if (d.game === 1) return `<div class="dup">${title}<p>${esc(w.dup_first)}</p></div>`;
  const share = (mp: number, top: number | undefined) =>
    top ? esc(w.percent(Math.round((100 * mp) / top))) : "-";
  const cells = (mps: number[], tops: number[]) =>
    mps.map((mp, i) => `<td>${share(mp, tops[i])}</td>`).join("");
  const head =
    `<tr><th scope="col">${esc(w.sheet_hand)}</th>` +
    heads.map((h) => `<th scope="col">${esc(h)}</th>`).join("") +
    `</tr>`;
  const rows = d.rows
    .map((r) => `<tr><td>${r.number}</td>${cells(r.matchpoints, r.tops)}</tr>`)
    .join("");
  const total = `<tr class="total"><th scope="row">${esc(w.dup_total)}</th>${cells(d.matchpoints, d.tops)}</tr>`;
  const legend = w.dup_legend.map((line) => `<p>${esc(line)}</p>`).join("");
  return `<div class="dup">${title}<table class="grid">${head}${rows}${total}</table>${legend}</div>`;
}

function optionsHtml(s: State, w: Words): string {
  return (
    `<label class="opt"><input type="checkbox" data-ui="confirm"${s.confirm ? " checked" : ""}> ${esc(w.confirm)}</label>` +
    dailyChoices(s, w)
  );
}

const previous = new Map<string, string>();

/**
 * Makes `el`'s children what `next`'s are, touching only what differs: an element whose markup
 * is unchanged stays as it is (its SVG neither parsed, styled nor painted again, a card on the
 * trick not redrawn when the next one comes); one that differs only in its attributes or some
 * of its children is changed in place; anything else is replaced. Elements are matched by
 * position, as the table's regions grow at their end (a trick's cards, a seat's lines).
 */
function morph(el: Element, next: Element | DocumentFragment): void {
  const olds = [...el.childNodes];
  const news = [...next.childNodes];
  const elementsOnly = [...olds, ...news].every((n) => n.nodeType === Node.ELEMENT_NODE);
  if (!elementsOnly) {
    el.replaceChildren(...news); // text among them: small, rebuilt whole
    return;
  }
  news.forEach((node, i) => {
    const old = olds[i] as Element | undefined;
    const neu = node as Element;
    if (old === undefined) el.appendChild(neu);
    else if (old.outerHTML === neu.outerHTML) return;
    else if (old.tagName !== neu.tagName || old.namespaceURI !== neu.namespaceURI) old.replaceWith(neu);
    else if (old.innerHTML === neu.innerHTML) attributes(old, neu);
    else if (neu.namespaceURI !== "http://www.w3.org/1999/xhtml") old.replaceWith(neu); // an SVG: whole
    else {
      attributes(old, neu);
      morph(old, neu);
    }
  });
  for (const old of olds.slice(news.length)) old.remove();
}

function attributes(old: Element, neu: Element): void {
  for (const { name } of [...old.attributes]) if (!neu.hasAttribute(name)) old.removeAttribute(name);
  for (const { name, value } of [...neu.attributes]) if (old.getAttribute(name) !== value) old.setAttribute(name, value);
}

/** Brings a region's markup up to date if it changed, giving focus back to what had it. */
function patch(root: HTMLElement, region: string, html: string): void {
  if (previous.get(region) === html) return;
  previous.set(region, html);
  const el = root.querySelector<HTMLElement>(`[data-region="${region}"]`);
  if (el === null) return;
  const active = document.activeElement;
  let focusKey: string | null = null;
  if (active instanceof HTMLElement && el.contains(active)) {
    focusKey = active.dataset.card ?? active.dataset.act ?? active.dataset.ui ?? null;
  }
  const next = document.createElement("template");
  next.innerHTML = html;
  morph(el, next.content);
  if (focusKey !== null && !el.contains(document.activeElement)) {
    const again = el.querySelector<HTMLElement>(
      `[data-card="${focusKey}"],[data-act="${focusKey}"],[data-ui="${focusKey}"]`,
    );
    // The card just played is gone: keep the keyboard in the hand, on its first card.
    (again ?? el.querySelector<HTMLElement>("button"))?.focus();
  }
}

/** The person's words, with the game's letters on the cards (``notation``) where given. */
function wordsFor(s: State): Words {
  const w = WORDS[s.lang];
  const notation = s.table?.notation;
  return notation === "en" || notation === "fr"
    ? { ...w, rank_letter: WORDS[notation].rank_letter }
    : w;
}

/** Whether a table was drawn already: the first one appears, nothing flies in. */
let drawn = false;

export function render(root: HTMLElement, s: State): void {
  const w = wordsFor(s);
  document.documentElement.lang = s.lang;
  const t = s.table;
  patch(root, "notice", noticeHtml(s, t, w));
  patch(root, "options", optionsHtml(s, w));
  const result = s.dailyResult !== null && s.dailyResultOpen ? s.dailyResult : null;
  patch(root, "daily", result === null ? "" : dailyResultHtml(result, w, t !== null));
  if (t === null) {
    // No table (yet, or any more: the page moved between the channel's table and a daily).
    for (const region of ["bar", "seats", "me", "prompt", "hand", "sheet"]) patch(root, region, "");
    patch(root, "center", noGameHtml(s, w));
    drawn = false;
    return;
  }
  setFourColour(t.four_colour === true);
  const was = drawn && motionOn() ? before(root) : null;
  drawn = true;
  const pos = positions(t);
  // Written only when they change: an attribute the stylesheet selects on, set again, can make
  // the browser restyle the whole table.
  const players = String(t.seats.length);
  if (root.dataset.players !== players) root.dataset.players = players;
  const seated = t.hand ? "yes" : "no";
  if (root.dataset.seated !== seated) root.dataset.seated = seated;
  patch(root, "bar", barHtml(s, t, w));
  // The seat at the bottom (the viewer's, or the first seat for a watcher) gets the strip
  // above the hand; the others sit around the table.
  const bottom = t.viewer ?? 0;
  const others = t.seats
    .filter((seat) => seat.seat !== bottom)
    .map((seat) => seatHtml(t, seat, pos.get(seat.seat) ?? "top", w, false))
    .join("");
  patch(root, "seats", others);
  patch(root, "center", centerHtml(s, t, w, pos));
  const me = t.seats[bottom];
  patch(root, "me", me ? seatHtml(t, me, "bottom", w, t.viewer !== null) : "");
  patch(root, "prompt", promptHtml(s, t, w));
  patchHand(root, s, t, w);
  // The fan's card count, for its overlap (style.css), set through the CSSOM: a style
  // attribute in markup would need 'unsafe-inline' in a Content Security Policy.
  const n = Math.max(t.hand?.cards.length ?? 1, 1);
  const fan = root.querySelector<HTMLElement>(".fan");
  fan?.style.setProperty("--n", String(n));
  fan?.style.setProperty("--per", String(Math.max(firstRow(n), 1)));
  patch(root, "sheet", s.sheetOpen ? sheetHtml(t, w) : "");
  if (was !== null) after(root, was, t.tricks[t.tricks.length - 1]?.winner ?? null);
  tick(root, s);
}

/** Runs the turn timer down without re-rendering: a bar (a transform) and the seconds left. */
export function tick(root: HTMLElement, s: State): void {
  const deadline = s.table?.turn?.deadline ?? null;
  const fill = root.querySelector<HTMLElement>(".seat.turn .timer .fill");
  const secs = root.querySelector<HTMLElement>(".seat.turn .secs");
  if (fill === null || secs === null) return;
  if (deadline === null) {
    fill.style.transform = "scaleX(1)";
    secs.textContent = "";
    return;
  }
  const now = Date.now();
  const left = Math.max(0, deadline * 1000 - now);
  const whole = Math.max(1, deadline * 1000 - s.turnSeenAt);
  const scale = `scaleX(${Math.min(1, left / whole).toFixed(3)})`;
  if (!motionOn()) {
    fill.getAnimations().forEach((a) => a.cancel());
    fill.style.transform = scale; // a step every tick
  } else if (fill.dataset.until !== String(deadline)) {
    // One animation for the whole turn, run by the compositor: a transition started again at
    // every tick kept the page's main thread drawing every frame (bench/activity_frames.py).
    fill.dataset.until = String(deadline);
    fill.getAnimations().forEach((a) => a.cancel()); // the previous turn's, or one a redraw cut
    fill.animate([{ transform: scale }, { transform: "scaleX(0)" }], {
      duration: left,
      easing: "linear",
      fill: "forwards",
    });
  }
  fill.classList.toggle("low", left < 10_000);
  // Written when the second changes only: each write lays the line out again.
  const text = WORDS[s.lang].seconds(Math.ceil(left / 1000));
  if (secs.textContent !== text) secs.textContent = text;
}
