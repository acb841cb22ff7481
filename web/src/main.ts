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
import { Link, type LinkStatus } from "./connection";
import { mockSdk } from "./mock";
import { WORDS, langOf } from "./i18n";
import type { ActionText, CardText, ServerFrame } from "./protocol";
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

async function signIn(sdk: DiscordSDK | DiscordSDKMock): Promise<Session> {
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: sdk.clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const response = await fetch("api/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  const body = (await response.json().catch(() => ({}))) as { access_token?: string; error?: string };
  if (!response.ok || !body.access_token) {
    throw new Error(body.error ?? `api/token: HTTP ${response.status}`);
  }
  await sdk.commands.authenticate({ access_token: body.access_token });
  let locale = navigator.language;
  try {
    locale = (await sdk.commands.userSettingsGetLocale()).locale || locale;
  } catch {
    // Not granted on this client: the browser's language will do until the server's `ready`.
  }
  return {
    accessToken: body.access_token,
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
    }
    if (frame.op === "ready" || frame.op === "table") {
      const t = frame.table;
      state.table = t;
      const turnKey = t.turn ? `${t.turn.seat}:${t.turn.kind}:${t.turn.deadline}` : "";
      if (turnKey !== state.turnKey) {
        state.turnKey = turnKey;
        state.turnSeenAt = Date.now();
      }
      const playable = new Set(t.hand?.playable ?? []);
      if (state.armed !== null && !playable.has(state.armed)) state.armed = null;
      if (!t.hand?.legal.includes("JK:win")) state.jokerAsk = false;
    }
    if (frame.op === "error") say(frame.message);
    state.sending = link ? [...link.pending.values()] : [];
    draw();
  };

  const onStatus = (status: LinkStatus) => {
    state.link = status;
    draw();
  };

  const act = (action: ActionText) => {
    if (link === null) return;
    link.act(action);
    state.sending = [...link.pending.values()];
    state.armed = null;
    state.jokerAsk = false;
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
    draw();
  });
  setInterval(() => tick(root, state), 250);
  draw();

  // The real SDK's constructor throws outside Discord (no frame_id): shown like any failure.
  Promise.resolve()
    .then(() => signIn(makeSdk()))
    .then((session) => {
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
      state.notice = `${WORDS[state.lang].stopped} ${error instanceof Error ? error.message : String(error)}`;
      draw();
    });
}

start();
