/**
 * The websocket to the bot: hello, resume after a drop, heartbeat, and actions that survive a
 * reconnect. docs/activity-protocol.md is the contract; this module knows nothing of cards or the DOM.
 *
 * - A dropped socket reconnects with exponential backoff and full jitter (`backoff`): the first
 *   try 0.5 to 5 s after the drop, so that after a server restart or a takeover the open tables
 *   come back spread over seconds rather than all in the same instant, then up to 10 and 15 s.
 *   It says `last_seq`.
 * - A refused hello says whether trying again can help (its `code`): `auth` and `wrong-channel`
 *   are final; `retry` (Discord did not answer the server's checks) and `busy` (the server is
 *   at a cap) are tried again with that backoff, never sooner than the frame's `retry_after`;
 *   `not-in-instance` a few times (Discord's list of the instance's people can lag just after
 *   a launch), then final. `no-game` (a server with several processes) is asked again only
 *   minutes later: a game opened meanwhile in another process is not heard by this one.
 * - A `waiting` frame: no game in this channel, and the server keeps the socket open; the
 *   channel's game comes as `ready` when someone opens one there.
 * - A `ping` every 10 s; a socket that hears nothing for 30 s is taken as dead and replaced
 *   (mobile webviews, iOS's above all, drop sockets without a close event).
 * - Where the socket sits: the channel's table, or the person's daily deal (`place`, the
 *   hello's `daily`, issue 47), kept across reconnects. Changing place opens a new socket at
 *   once and forgets the actions pending at the old place (they were made on another game's
 *   table: resent, they could land in the new one). A hello refused `no-daily` goes back to
 *   the channel's table.
 * - Each action carries a fresh random key and the move count of the table it was made on, and
 *   stays pending until the server acks or refuses it; after a reconnect every pending action
 *   is sent again unchanged (same key, same count), which the server answers with its first
 *   answer and never applies twice, or refuses as out of date if the game moved on meanwhile.
 */
import type { Act, ActionText, ClientFrame, GameName, Hello, LobbyWhat, ServerFrame } from "./protocol";

export type LinkStatus = "connecting" | "open" | "waiting" | "retrying" | "stopped";

/** Why the link waits before trying again: a drop, or what the last hello was told. */
export type RetryWhy = "drop" | "retry" | "busy" | "not-in-instance" | "no-game" | "token";

export interface Retry {
  why: RetryWhy;
  /** When the next try starts (ms since the epoch). */
  at: number;
}

export interface LinkEvents {
  frame(frame: ServerFrame): void;
  status(status: LinkStatus, retry?: Retry): void;
}

/** Refusals of the hello itself that trying again cannot help: the link stops. */
const FINAL_CODES = new Set(["auth", "wrong-channel"]);
/** How many times a hello refused as `not-in-instance` is tried again before it is final. */
export const NOT_IN_INSTANCE_TRIES = 3;
const PING_MS = 10_000;
const SILENT_MS = 30_000;
/** The least wait before a try, and the spread of the first one (then doubled, to the most). */
const LEAST_RETRY_MS = 500;
const FIRST_SPREAD_MS = 5_000;
const MAX_RETRY_MS = 15_000;
/** No game in the channel (several processes): asked again 2 to 5 minutes later. */
const NO_GAME_MS: [number, number] = [120_000, 300_000];

/**
 * The wait before try number `attempt` (0 the first after a drop): at least `floorMs` (a
 * server's `retry_after`, a `Retry-After`), plus from 0.5 s up to 5 s doubled per attempt,
 * at most 15 s, spread uniformly ("full jitter").
 */
export function backoff(attempt: number, floorMs = 0): number {
  const ceiling = Math.min(MAX_RETRY_MS, FIRST_SPREAD_MS * 2 ** attempt);
  return Math.max(0, floorMs) + LEAST_RETRY_MS + Math.random() * (ceiling - LEAST_RETRY_MS);
}

export function freshKey(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === "function") return c.randomUUID();
  const bytes = c.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class Link {
  lastSeq: number | null = null;
  /** Actions sent and not yet answered (their frames, by key), in the order they were made. */
  readonly pending = new Map<string, Act>();
  private socket: WebSocket | null = null;
  private attempt = 0;
  private heardAt = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  /** What the last hello was told, when it was a refusal worth trying again. */
  private refused: { why: RetryWhy; floorMs: number } | null = null;
  /** Hellos refused as `not-in-instance` in a row. */
  private notInInstance = 0;
  /** No try before this (ms since the epoch): what the server asked for. */
  private notBefore = 0;
  /** Today's daily deal of this game, where the socket sits; null: the channel's table. */
  daily: GameName | null = null;

  constructor(
    private readonly url: string,
    private readonly hello: () => Omit<Hello, "last_seq">,
    private readonly events: LinkEvents,
  ) {}

  start(): void {
    this.stopped = false;
    this.open();
    // A page brought back to the front reconnects at once rather than at its next backoff,
    // unless the server asked for a wait (retry_after, minutes without a game).
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && Date.now() >= this.notBefore) this.now();
    });
  }

  /** Tries again now if a try is waiting (the person asked: "Look now"). */
  now(): void {
    if (this.retry === null || this.stopped) return;
    clearTimeout(this.retry);
    this.retry = null;
    this.open();
  }

  /** Sits at another place now (the daily of `daily`, or the channel's table): a new socket. */
  place(daily: GameName | null): void {
    this.daily = daily;
    this.pending.clear();
    this.lastSeq = null;
    this.attempt = 0;
    this.refused = null;
    if (this.retry !== null) clearTimeout(this.retry);
    this.retry = null;
    const socket = this.socket;
    if (socket !== null) {
      socket.onclose = socket.onmessage = socket.onerror = null;
      socket.close();
      this.dropped(socket, true);
    }
    this.open();
  }

  /** Sends an action made on the table of move count `n` under a fresh key; returns the key. */
  act(action: ActionText, n: number): string {
    const frame: Act = { op: "act", key: freshKey(), action, n };
    this.pending.set(frame.key, frame);
    this.send(frame);
    return frame.key;
  }

  /** Sends a lobby move (join, leave, a computer, start) under a fresh key. Not resent after
   * a drop: the table that comes back shows whether it was done, and the person taps again. */
  lobby(what: LobbyWhat): void {
    this.send({ op: "lobby", key: freshKey(), what });
  }

  /** The actions sent and not yet answered. */
  sending(): ActionText[] {
    return [...this.pending.values()].map((frame) => frame.action);
  }

  private open(): void {
    if (this.stopped) return;
    this.events.status("connecting");
    this.refused = null;
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      this.heardAt = Date.now();
      // `daily` only at a daily: the channel's hello is as it always was.
      const daily = this.daily === null ? {} : { daily: this.daily };
      this.send({ ...this.hello(), op: "hello", last_seq: this.lastSeq, ...daily });
      this.timer = setInterval(() => this.beat(), PING_MS);
    };
    socket.onmessage = (event) => {
      this.heardAt = Date.now();
      let frame: ServerFrame;
      try {
        frame = JSON.parse(String(event.data)) as ServerFrame;
      } catch {
        return; // not ours to guess at; the next table frame is whole state anyway
      }
      this.receive(frame, socket);
    };
    socket.onclose = () => this.dropped(socket);
    socket.onerror = () => socket.close();
  }

  private receive(frame: ServerFrame, socket: WebSocket): void {
    switch (frame.op) {
      case "ready":
        this.attempt = 0;
        this.notInInstance = 0;
        this.lastSeq = frame.seq;
        this.events.status("open");
        this.events.frame(frame);
        // Whatever was sent before the drop and never answered goes again, unchanged: the
        // table it was made on, not the one just received.
        for (const frame of this.pending.values()) this.send(frame);
        return;
      case "waiting":
        // Signed in, no game here yet: the socket stays open and its ready comes later.
        this.attempt = 0;
        this.notInInstance = 0;
        this.events.status("waiting");
        break;
      case "table":
        if (this.lastSeq !== null && frame.seq <= this.lastSeq) return; // old news
        this.lastSeq = frame.seq;
        break;
      case "ack":
        this.pending.delete(frame.key);
        break;
      case "error":
        if (frame.key !== null) this.pending.delete(frame.key);
        else this.helloRefused(frame.code, frame.retry_after, socket);
        break;
      case "daily-result":
        // The person's daily, played: its result (at no table, or at its end).
        this.attempt = 0;
        this.events.status("open");
        break;
      case "pong":
        break;
    }
    this.events.frame(frame);
  }

  /** The hello was refused: stop, or close and try again when the code says it may help. */
  private helloRefused(code: string, retryAfter: number | undefined, socket: WebSocket): void {
    const floorMs = typeof retryAfter === "number" && retryAfter > 0 ? retryAfter * 1000 : 0;
    if (FINAL_CODES.has(code)) {
      this.stop();
      return;
    }
    if (code === "no-daily") {
      this.place(null); // the daily cannot be played from here: the channel's table again
      return;
    }
    if (code === "not-in-instance") {
      this.notInInstance += 1;
      if (this.notInInstance > NOT_IN_INSTANCE_TRIES) {
        this.stop();
        return;
      }
      this.refused = { why: "not-in-instance", floorMs };
    } else if (code === "retry" || code === "busy" || code === "no-game") {
      this.refused = { why: code, floorMs };
    } else {
      return; // a refusal of something else (a bad frame): the socket goes on
    }
    socket.close(); // the server closes it too; the retry starts from the close
  }

  private beat(): void {
    const socket = this.socket;
    if (socket !== null && Date.now() - this.heardAt > SILENT_MS) {
      // A dead connection may take minutes to report its close: leave it and start again now.
      socket.onclose = socket.onmessage = socket.onerror = null;
      socket.close();
      this.dropped(socket);
      return;
    }
    this.send({ op: "ping" });
  }

  private send(frame: ClientFrame): void {
    if (this.socket !== null && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(frame));
    }
  }

  private dropped(socket: WebSocket, moving = false): void {
    if (socket !== this.socket) return;
    this.socket = null;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    if (this.stopped || moving) return;
    const refused = this.refused;
    const why: RetryWhy = refused?.why ?? "drop";
    const floorMs = refused?.floorMs ?? 0;
    const wait =
      why === "no-game"
        ? Math.max(floorMs, NO_GAME_MS[0] + Math.random() * (NO_GAME_MS[1] - NO_GAME_MS[0]))
        : backoff(this.attempt, floorMs);
    this.attempt += 1;
    const at = Date.now() + wait;
    this.notBefore = why === "no-game" ? at : Date.now() + floorMs;
    this.events.status("retrying", { why, at });
    this.retry = setTimeout(() => {
      this.retry = null;
      this.open();
    }, wait);
  }

  stop(): void {
    this.stopped = true;
    if (this.retry !== null) clearTimeout(this.retry);
    this.retry = null;
    this.events.status("stopped");
    this.socket?.close();
  }
}
