/**
 * The client's words, in English and in French as Quebec plays the game (pli, manche, brasseur,
 * chômeur, atout, sans-atout: the bot's own words, bot/locales/fr.json). French typography after
 * the OQLF, as bot/locales/fr.json writes it: a no-break space before a colon and inside « »,
 * a narrow no-break space before ? ! ;.
 *
 * The words the chat shows too (a game's name, a button, a suit, a card's name) are the bot's
 * catalogues' own, through ./catalogue (generated from bot/locales/ by `npm run generate`);
 * the rest are the page's.
 */
import { CATALOGUE } from "./catalogue";
import type { GameName, Lang, SuitLetter } from "./protocol";

const NBSP = "\u00a0"; // before a colon, inside « » (a narrow one, U+202F, before ? ! ;)
/** A no-break hyphen: « échangez‑la », « perd‑il » never break at their hyphen. */
const NBH = "\u2011";

type Shared = Record<keyof (typeof CATALOGUE)["en"], string>;

/** A catalogue entry's `{name}` placeholders filled, as bot/words/i18n.py fills them. */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** A French text whose hyphens between letters never break a line (« échangez-la »). */
function whole(text: string): string {
  return text.replace(/(?<=\p{L})-(?=\p{L})/gu, NBH);
}

/** The face cards' names in a card's name ("jack of spades"): the catalogue's, in lower case. */
function rankNames(words: Shared): Record<number, string> {
  const low = (key: keyof Shared) => words[key].toLowerCase();
  return { 11: low("rank.11"), 12: low("rank.12"), 13: low("rank.13"), 14: low("rank.14") };
}

const c: Shared = CATALOGUE.en;

const en = {
  /** Each game's name, the catalogue's game.<name> (tests/test_game_names.py checks). */
  game: {
    nines: c["game.nines"],
    "nein-nine": c["game.nein-nine"],
  } satisfies Record<GameName, string>,
  unit_hand: (n: number) => `Hand ${n}`,
  unit_round: (n: number) => `Round ${n}`,
  trump: "Trump",
  no_trump: c["trump.none"],
  no_trump_short: c["sheet.no_trump"],
  no_trump_yet: "No trump yet: the first 8 sets it",
  big_spit: "Big Spit",
  little_spit: "Little Spit",
  dealer: "Dealer",
  your_turn: "Your turn",
  your_exchange: c["hand.your_exchange"],
  turn_of: (name: string) => `${name}'s turn`,
  exchange_of: (name: string) => `${name} decides: keep or swap`,
  tricks: (n: number) => (n === 1 ? "1 trick" : `${n} tricks`),
  quota_left: (n: number) => `needs ${n}`,
  quota_met: "quota met",
  cards_left: (n: number) => (n === 1 ? "1 card left" : `${n} cards left`),
  score: "Score",
  sheet: "Score sheet",
  sheet_hand: "#",
  sheet_trump: c["sheet.trump"],
  sheet_dealer: c["sheet.dealer"],
  /** A duplicate match's running result under the sheet (the chat's words, issue 47). */
  dup_title: (n: number, games: number) =>
    fill(c["sheet.duplicate_title"], { number: String(n), games: String(games) }),
  dup_first: c["sheet.duplicate_first"],
  dup_total: c["sheet.duplicate_total"],
  dup_legend: [
    c["sheet.legend_duplicate"],
    c["sheet.legend_duplicate_none"],
    fill(c["sheet.legend_duplicate_total"], { total: c["sheet.duplicate_total"] }),
  ],
  percent: (n: number) => `${n}%`,
  last_trick: "Last trick",
  all_tricks: (unit: "hand" | "round") => `Every trick of the ${unit}`,
  trick_n: (n: number) => `Trick ${n}`,
  /** Who took a trick, after "Last trick, " or "Trick 3, " (chat's "won by"). */
  won_by: (name: string) => `won by ${name}`,
  change: "Change",
  unchanged: "unchanged",
  keep: c["button.keep"],
  swap: c["button.swap"],
  joker_prompt: c["hand.joker_call"],
  joker_win: c["button.joker_win"],
  joker_lose: c["button.joker_lose"],
  called_win: "wins",
  called_lose: "loses",
  cancel: c["button.cancel"],
  watching: "You are watching: no hand is shown to watchers.",
  your_hand: "Your hand",
  put_down: "You put down",
  confirm: "Tap twice to play",
  tap_again: (card: string) => `Tap ${card} again to play it`,
  connecting: "Connecting…",
  reconnecting: (s: number) => `Connection lost: reconnecting in ${s} s…`,
  retry_discord: (s: number) => `Discord is slow to answer: trying again in ${s} s.`,
  retry_busy: (s: number) => `The table's server is busy: trying again in ${s} s.`,
  retry_not_in: (s: number) => `Discord does not list you in this Activity yet: trying again in ${s} s.`,
  no_game: "No game in this channel yet: start one with /nines start.",
  no_game_later: (m: number) => `Looking again in ${m} min.`,
  look_now: "Look now",
  stopped: "Disconnected.",
  lobby: "Waiting for the game to start.",
  lobby_seats: (taken: number, all: number) => `${taken} of ${all} seats taken`,
  lobby_join_hint: "Join to play: your seat is kept until the host starts.",
  lobby_full_hint: "Every seat is taken: the host can start.",
  lobby_wait_host: "The host starts the game once every seat is taken.",
  open_lobby: "Open a table here",
  join: "Join",
  leave: "Leave",
  add_cpu: "Add a computer",
  remove_cpu: "Remove a computer",
  start: "Start",
  abandoned: "This game was abandoned.",
  game_over: "Game over",
  win: (names: string) => `${names} won`,
  place: (n: number) => (n === 1 ? "1st" : n === 2 ? "2nd" : n === 3 ? "3rd" : `${n}th`),
  hand_over: (unit: "hand" | "round", n: number) => `${unit === "hand" ? "Hand" : "Round"} ${n} is over`,
  instant_win: "Instant win: the hand stopped there.",
  spare: "The spare",
  nines_taken: "9s",
  points: "Points",
  close: "Close",
  options: "Options",
  tiebreak: "Tie-break: one more to decide the winner",
  computer: "computer",
  away: "away: the computer plays",
  host: "host",
  kept: "kept their hand",
  swapped: "swapped",
  team: (n: number) => `Team ${n + 1}`,
  you: "you",
  seconds: (s: number) => `${s}${NBSP}s`,
  suit: { H: c["suit.H"], D: c["suit.D"], C: c["suit.C"], S: c["suit.S"] } as Record<SuitLetter, string>,
  rank_name: rankNames(c),
  rank_letter: { 11: "J", 12: "Q", 13: "K", 14: "A" } as Record<number, string>,
  card_name: (rank: string, suit: string) => fill(c["card.name"], { rank, suit }),
  joker: c["card.joker"],
  and: " and ",
  colon: ": ",
  // Today's daily deal (issue 47): the chat's result, in the chat's words.
  daily: "Today's daily deal",
  daily_hint: "The same cards for everyone, scored against all who held them; one try a day.",
  daily_of: (game: string) => `Daily ${game}`,
  daily_private: "Only you see this table",
  daily_back: "Back to the channel's table",
  daily_footer: "Only you see this result. The deal opens to everyone at 00:00 UTC.",
  daily_percent: (n: number) => fill(c["daily.percent"], { n: String(n) }),
  daily_title: (game: string, day: string) => fill(c["daily.result.title"], { game, day }),
  daily_first: c["daily.result.first"],
  daily_share: (share: string, count: number) =>
    fill(count === 1 ? c["daily.result.share.one"] : c["daily.result.share.other"], { share, count: String(count) }),
  daily_hand: (number: number, points: string, share: string) =>
    fill(c["daily.result.hand"], { number: String(number), points, share }),
  daily_choices: c["daily.result.choices"],
  daily_choice: (number: number, decision: number, mine: string, share: string, common: string) =>
    fill(c["daily.result.choice"], { number: String(number), decision: String(decision), mine, share, common }),
};

export type Words = typeof en;

const f: Shared = CATALOGUE.fr;

const fr: Words = {
  game: { nines: f["game.nines"], "nein-nine": f["game.nein-nine"] },
  unit_hand: (n) => `Manche ${n}`,
  unit_round: (n) => `Manche ${n}`,
  trump: "Atout",
  no_trump: whole(f["trump.none"]),
  no_trump_short: f["sheet.no_trump"],
  no_trump_yet: `Pas encore d'atout${NBSP}: le premier 8 le fixe`,
  big_spit: "Grand 7",
  little_spit: "Petit 7",
  dealer: "Brasseur",
  your_turn: "À vous",
  your_exchange: whole(f["hand.your_exchange"]),
  turn_of: (name) => `Au tour de ${name}`,
  exchange_of: (name) => `${name} décide${NBSP}: garder ou échanger`,
  tricks: (n) => (n <= 1 ? `${n} pli` : `${n} plis`),
  quota_left: (n) => `encore ${n}`,
  quota_met: "quota atteint",
  cards_left: (n) => (n <= 1 ? `${n} carte en main` : `${n} cartes en main`),
  score: "Score",
  sheet: "Feuille de pointage",
  sheet_hand: "#",
  sheet_trump: f["sheet.trump"],
  sheet_dealer: f["sheet.dealer"],
  dup_title: (n, games) =>
    fill(f["sheet.duplicate_title"], { number: String(n), games: String(games) }),
  dup_first: f["sheet.duplicate_first"],
  dup_total: f["sheet.duplicate_total"],
  dup_legend: [
    f["sheet.legend_duplicate"],
    f["sheet.legend_duplicate_none"],
    fill(f["sheet.legend_duplicate_total"], { total: f["sheet.duplicate_total"] }),
  ],
  percent: (n) => `${n}${NBSP}%`,
  last_trick: "Dernier pli",
  all_tricks: () => "Tous les plis de la manche",
  trick_n: (n) => `Pli ${n}`,
  won_by: (name) => `remporté par ${name}`,
  change: "Écart",
  unchanged: "inchangé",
  keep: f["button.keep"],
  swap: f["button.swap"],
  joker_prompt: whole(f["hand.joker_call"]),
  joker_win: f["button.joker_win"],
  joker_lose: f["button.joker_lose"],
  called_win: "gagne",
  called_lose: "perd",
  cancel: f["button.cancel"],
  watching: `Vous regardez la partie${NBSP}: aucune main n'est montrée aux spectateurs.`,
  your_hand: "Votre main",
  put_down: "Vous avez déposé",
  confirm: "Toucher deux fois pour jouer",
  tap_again: (card) => `Touchez de nouveau ${card} pour la jouer`,
  connecting: "Connexion…",
  reconnecting: (s) => `Connexion perdue${NBSP}: reconnexion dans ${s}${NBSP}s…`,
  retry_discord: (s) => `Discord tarde à répondre${NBSP}: nouvel essai dans ${s}${NBSP}s.`,
  retry_busy: (s) => `Le serveur de la table est occupé${NBSP}: nouvel essai dans ${s}${NBSP}s.`,
  retry_not_in: (s) =>
    `Discord ne vous compte pas encore dans cette activité${NBSP}: nouvel essai dans ${s}${NBSP}s.`,
  no_game: `Pas encore de partie dans ce salon${NBSP}: lancez${NBH}en une avec /neuf commencer.`,
  no_game_later: (m) => `Nouveau coup d'œil dans ${m}${NBSP}min.`,
  look_now: "Regarder maintenant",
  stopped: "Déconnecté.",
  lobby: "En attente du début de la partie.",
  lobby_seats: (taken, all) => `${taken} place${taken > 1 ? "s" : ""} prise${taken > 1 ? "s" : ""} sur ${all}`,
  lobby_join_hint: `Rejoignez la table pour jouer${NBSP}: votre place est gardée jusqu'au début.`,
  lobby_full_hint: `Toutes les places sont prises${NBSP}: l'hôte peut commencer.`,
  lobby_wait_host: "L'hôte lance la partie une fois toutes les places prises.",
  open_lobby: "Ouvrir une table ici",
  join: "Rejoindre",
  leave: "Quitter",
  add_cpu: "Ajouter un robot",
  remove_cpu: "Retirer un robot",
  start: "Commencer",
  abandoned: "Cette partie a été abandonnée.",
  game_over: "Fin de la partie",
  win: (names) => `Victoire${NBSP}: ${names}`,
  place: (n) => (n === 1 ? "1er" : `${n}e`),
  hand_over: (_unit, n) => `Fin de la manche ${n}`,
  instant_win: `Victoire immédiate${NBSP}: la manche s'est arrêtée là.`,
  spare: "Le chômeur",
  nines_taken: "9",
  points: "Points",
  close: "Fermer",
  options: "Options",
  tiebreak: `Bris d'égalité${NBSP}: une manche de plus pour départager`,
  computer: "robot",
  away: "absent, le robot joue",
  host: "hôte",
  kept: "a gardé sa main",
  swapped: "a échangé",
  team: (n) => `Équipe ${n + 1}`,
  you: "vous",
  seconds: (s) => `${s}${NBSP}s`,
  suit: { H: f["suit.H"], D: f["suit.D"], C: f["suit.C"], S: f["suit.S"] },
  rank_name: rankNames(f),
  rank_letter: { 11: "V", 12: "D", 13: "R", 14: "A" },
  card_name: (rank, suit) => fill(f["card.name"], { rank, suit }),
  joker: f["card.joker"],
  and: " et ",
  colon: `${NBSP}: `,
  daily: "Partie du jour",
  daily_hint: `Les mêmes cartes pour tout le monde, comparées à tous ceux qui les ont tenues${NBSP}; un essai par jour.`,
  daily_of: (game) => `Partie du jour (${game})`,
  daily_private: "Personne d'autre ne voit cette table",
  daily_back: "Retour à la table du salon",
  daily_footer: "Personne d'autre ne voit ce résultat. La partie s'ouvre à tous à minuit, temps universel.",
  daily_percent: (n) => fill(f["daily.percent"], { n: String(n) }),
  daily_title: (game, day) => fill(f["daily.result.title"], { game, day }),
  daily_first: f["daily.result.first"],
  daily_share: (share, count) =>
    fill(count <= 1 ? f["daily.result.share.one"] : f["daily.result.share.other"], { share, count: String(count) }),
  daily_hand: (number, points, share) => fill(f["daily.result.hand"], { number: String(number), points, share }),
  daily_choices: f["daily.result.choices"],
  daily_choice: (number, decision, mine, share, common) =>
    fill(f["daily.result.choice"], { number: String(number), decision: String(decision), mine, share, common }),
};

export const WORDS: Record<Lang, Words> = { en, fr };

/** "fr", "fr-CA", "fr_FR" → fr; anything else → en. */
export function langOf(locale: string | null | undefined): Lang {
  return locale && locale.toLowerCase().startsWith("fr") ? "fr" : "en";
}
