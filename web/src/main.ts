/**
 * Startup and inputs: Discord's SDK (or its mock), the OAuth2 exchange through our server, the
 * websocket, and what a tap does. The flow is Discord's documented one
 * (https://discord.com/developers/docs/activities/building-an-activity, "Authorizing and
 * authenticating users"): ready(), authorize() for a code, our server swaps the code for a
 * token (POST api/token), authenticate() with that token.
 *
 * Every URL is relative to the page (no leading slash), so the same build works at "/" and
 * under Discord's "/.proxy/" prefix (https://discord.com/developers/docs/activities/development-guides/networking).
 *
 * In the tests' build only (`node build.mjs --mock`), `?mock=<user id>` runs with the SDK's
 * DiscordSDKMock instead (src/mock.ts); the production build has no mock.
 */
import "./style.css";
import { DiscordSDK, type DiscordSDKMock } from "@discord/embedded-app-sdk";
import { SUIT_SPRITE, parseCard } from "./cards";
import { Link, type LinkStatus, type Retry, backoff } from "./connection";
import { mockSdk } from "./mock";
import { WORDS, langOf } from "./i18n";
import type { ActionText, CardText, GameName, LobbyWhat, ServerFrame } from "./protocol";
import { render, tick } from "./render";
import { type State, initialState, saveConfirm } from "./state";

interface Session {
  accessToken: string;
  instanceId: string;
  channelId: string;
  guildId: string | null;
  locale: string;
}

const query = new URLSearchParams(location.search);

/** The application's id: Discord serves an Activity at https://<application id>.discordsays.com. */
function clientIdFromHost(): string {
  const host = location.hostname;
  return host.endsWith(".discordsays.com") ? (host.split(".")[0] ?? "") : (query.get("client_id") ?? "");
}

function makeSdk(): DiscordSDK | DiscordSDKMock {
  // MOCK_SDK is false in the production build (web/build.mjs), which drops this branch and
  // the mock with it; only the tests' build (`--mock`) runs outside Discord.
  if (MOCK_SDK) {
    const mockUser = query.get("mock");
    if (mockUser !== null) return mockSdk(query, mockUser);
  }
  return new DiscordSDK(clientIdFromHost());
}

/** Hello refusals the link tries again after: its own line says so, not the server's words. */
const FOR_NOW = new Set(["retry", "busy", "no-game", "not-in-instance"]);

/** How many times the token exchange is tried before the page gives up. */
const TOKEN_TRIES = 8;

/** A `Retry-After` header in milliseconds: seconds, or an HTTP date (RFC 9110, 10.2.3). */
function retryAfterMs(header: string | null): number {
  if (header === null) return 0;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? 0 : Math.max(0, at - Date.now());
}

/**
 * The authorization code for an access token, through our server (POST api/token). A 429
 * (no sooner than its `Retry-After`), a 5xx or no answer at all is tried again with the
 * socket's backoff; a 400 (the code refused) or anything else is final.
 */
async function exchange(code: string, waiting: (retry: Retry) => void): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    let response: Response | null = null;
    try {
      response = await fetch("api/token", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ code }),
      });
    } catch {
      response = null; // no answer (the network, a server restarting): tried again
    }
    const body = response
      ? ((await response.json().catch(() => ({}))) as { access_token?: string; error?: string })
      : {};
    if (response?.ok && body.access_token) return body.access_token;
    const again = response === null || response.status === 429 || response.status >= 500;
    if (!again || attempt + 1 >= TOKEN_TRIES) {
      throw new Error(body.error ?? `api/token: ${response ? `HTTP ${response.status}` : "no answer"}`);
    }
    const wait = backoff(attempt, retryAfterMs(response?.headers.get("Retry-After") ?? null));
    waiting({ why: "token", at: Date.now() + wait });
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

async function signIn(sdk: DiscordSDK | DiscordSDKMock, waiting: (retry: Retry) => void): Promise<Session> {
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: sdk.clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const accessToken = await exchange(code, waiting);
  await sdk.commands.authenticate({ access_token: accessToken });
  let locale = navigator.language;
  try {
    locale = (await sdk.commands.userSettingsGetLocale()).locale || locale;
  } catch {
    // Not granted on this client: the browser's language will do until the server's `ready`.
  }
  return {
    accessToken,
    instanceId: sdk.instanceId,
    channelId: sdk.channelId ?? "",
    guildId: sdk.guildId,
    locale,
  };
}

function socketUrl(): string {
  const url = new URL("api/ws", location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
}

function start(): void {
  document.body.insertAdjacentHTML("afterbegin", SUIT_SPRITE);
  const root = document.getElementById("app") as HTMLElement;
  const state: State = initialState(langOf(query.get("locale") ?? navigator.language));
  let link: Link | null = null;
  let noticeTimer: ReturnType<typeof setTimeout> | null = null;
  const draw = () => render(root, state);
  // Actions acknowledged whose table has not come yet, by key: the action, and the move count
  // of the table it was made on. The ack comes first (the move is stored), its table after
  // (up to half a second later on a busy server): meanwhile the card stays played, not raised
  // and tappable again for a second tap the server would refuse.
  const played = new Map<string, { action: ActionText; n: number }>();
  const sending = (): ActionText[] => [
    ...(link ? link.sending() : []),
    ...[...played.values()].map((p) => p.action),
  ];

  const say = (message: string) => {
    state.notice = message;
    if (noticeTimer !== null) clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => {
      state.notice = null;
      draw();
    }, 6000);
  };

  const onFrame = (frame: ServerFrame) => {
    if (frame.op === "ready") {
      state.you = frame.you;
      state.lang = frame.lang;
      state.dailyAt = frame.daily;
      state.dailyOffered = frame.daily_offered;
    }
    if (frame.op === "waiting") state.dailyOffered = frame.daily_offered;
    if (frame.op === "daily-result") {
      state.dailyResult = frame;
      state.dailyResultOpen = true;
    }
    if (frame.op === "error" && frame.key === null && frame.code === "no-daily") {
      // The link is back at the channel's table (connection.ts); the message says why.
      state.daily = null;
      state.dailyAt = null;
    }
    if (frame.op === "error" && frame.key !== null) played.delete(frame.key);
    if (frame.op === "ready" || frame.op === "table") {
      const t = frame.table;
      state.table = t;
      // A newer table holds the move (or shows why not): the card is the table's again.
      for (const [key, p] of played) {
        const card = p.action.split(":")[0] ?? "";
        if (t.n > p.n || !t.hand?.cards.includes(card)) played.delete(key);
      }
      const turnKey = t.turn ? `${t.turn.seat}:${t.turn.kind}:${t.turn.deadline}` : "";
      if (turnKey !== state.turnKey) {
        state.turnKey = turnKey;
        state.turnSeenAt = Date.now();
      }
      const playable = new Set(t.hand?.playable ?? []);
      if (state.armed !== null && !playable.has(state.armed)) state.armed = null;
      if (!t.hand?.legal.includes("JK:win")) state.jokerAsk = false;
    }
    // A hello refused for now is said by the link's own line (how long until it tries again).
    const forNow = frame.op === "error" && frame.key === null && FOR_NOW.has(frame.code);
    if (frame.op === "error" && !(forNow && state.link !== "stopped")) say(frame.message);
    state.sending = sending();
    draw();
  };

  const onStatus = (status: LinkStatus, retry?: Retry) => {
    state.link = status;
    // Kept while connecting again: the line says the try is under way.
    if (status !== "connecting") state.retry = retry ?? null;
    draw();
  };

  const act = (action: ActionText) => {
    if (link === null || state.table === null) return;
    const n = state.table.n; // the table the tap was made on
    played.set(link.act(action, n), { action, n });
    state.sending = sending();
    state.armed = null;
    state.jokerAsk = false;
    draw();
  };

  /** Sits at today's daily of `game`, or back at the channel's table (null): a new socket. */
  const goTo = (game: GameName | null) => {
    if (link === null || link.daily === game) return;
    state.daily = game;
    state.table = null; // nothing of the old place is tapped meanwhile
    state.dailyAt = null;
    state.dailyResult = null;
    state.dailyResultOpen = false;
    state.armed = null;
    state.jokerAsk = false;
    state.sheetOpen = false;
    played.clear();
    (root.querySelector("details.menu") as HTMLDetailsElement | null)?.removeAttribute("open");
    link.place(game);
    state.sending = sending();
    draw();
  };

  const tapCard = (card: CardText) => {
    const hand = state.table?.hand;
    if (!hand) return;
    const sending = state.sending.some((a) => a.split(":")[0] === card);
    if (!hand.playable.includes(card) || sending) return; // a dimmed card does nothing
    if (parseCard(card)?.suit === null && hand.legal.includes("JK:win")) {
      state.jokerAsk = true; // the call (win / lose) is the confirmation
      draw();
      root.querySelector<HTMLElement>('[data-act="JK:win"]')?.focus();
      return;
    }
    if (state.confirm && state.armed !== card) {
      state.armed = card;
      draw();
      return;
    }
    if (hand.legal.includes(card)) act(card);
  };

  root.addEventListener("click", (event) => {
    const target = (event.target as HTMLElement).closest<HTMLElement>("[data-card],[data-act],[data-ui]");
    if (target === null || !root.contains(target)) return;
    if (target.dataset.card !== undefined) tapCard(target.dataset.card);
    else if (target.dataset.act !== undefined) act(target.dataset.act);
    else {
      switch (target.dataset.ui) {
        case "sheet":
          state.sheetOpen = !state.sheetOpen;
          draw();
          root.querySelector<HTMLElement>('[data-ui="sheet-close"]')?.focus();
          break;
        case "sheet-close":
          state.sheetOpen = false;
          draw();
          root.querySelector<HTMLElement>('[data-ui="sheet"]')?.focus();
          break;
        case "close-result":
          state.closedResult = state.table?.last_result?.number ?? null;
          draw();
          break;
        case "cancel":
          state.jokerAsk = false;
          draw();
          break;
        case "daily-nines":
          goTo("nines");
          break;
        case "daily-nein-nine":
          goTo("nein-nine");
          break;
        case "daily-leave":
          goTo(null);
          break;
        case "daily-close":
          state.dailyResultOpen = false;
          draw();
          break;
        case "look-now":
          link?.now();
          break;
        case "lobby-join":
        case "lobby-leave":
        case "lobby-cpu":
        case "lobby-uncpu":
        case "lobby-start":
        case "lobby-open":
          link?.lobby(target.dataset.ui.slice("lobby-".length) as LobbyWhat);
          break;
      }
    }
  });
  root.addEventListener("change", (event) => {
    const input = event.target as HTMLInputElement;
    if (input.dataset.ui === "confirm") {
      state.confirm = input.checked;
      state.armed = null;
      saveConfirm(input.checked);
      draw();
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    state.sheetOpen = false;
    state.jokerAsk = false;
    state.armed = null;
    if (state.table !== null) state.dailyResultOpen = false; // at no table the result is all
    draw();
  });
  setInterval(() => {
    tick(root, state);
    if (state.retry !== null) draw(); // the seconds until the next try
  }, 250);
  draw();

  // The real SDK's constructor throws outside Discord (no frame_id): shown like any failure.
  Promise.resolve()
    .then(() => signIn(makeSdk(), (retry) => onStatus("retrying", retry)))
    .then((session) => {
      state.retry = null;
      if (!query.get("locale")) state.lang = langOf(session.locale);
      link = new Link(
        socketUrl(),
        () => ({
          op: "hello",
          access_token: session.accessToken,
          instance_id: session.instanceId,
          channel_id: session.channelId,
          guild_id: session.guildId,
          locale: session.locale,
        }),
        { frame: onFrame, status: onStatus },
      );
      link.start();
    })
    .catch((error: unknown) => {
      state.link = "stopped";
      state.retry = null;
      state.notice = `${WORDS[state.lang].stopped} ${error instanceof Error ? error.message : String(error)}`;
      draw();
    });
}

start();
