/**
 * The websocket to the bot: hello, resume after a drop, heartbeat, and actions that survive a
 * reconnect. ACTIVITY.md is the contract; this module knows nothing of cards or the DOM.
 *
 * - A dropped socket reconnects with exponential backoff (0.5 s doubling to 15 s, with jitter so
 *   a server restart is not met by every client in the same instant) and says `last_seq`.
 * - A `ping` every 10 s; a socket that hears nothing for 30 s is taken as dead and replaced
 *   (mobile webviews, iOS's above all, drop sockets without a close event).
 * - Each action carries a fresh random key and the move count of the table it was made on, and
 *   stays pending until the server acks or refuses it; after a reconnect every pending action
 *   is sent again unchanged (same key, same count), which the server answers with its first
 *   answer and never applies twice, or refuses as out of date if the game moved on meanwhile.
 */
import type { Act, ActionText, ClientFrame, Hello, ServerFrame } from "./protocol";

export type LinkStatus = "connecting" | "open" | "retrying" | "stopped";

export interface LinkEvents {
  frame(frame: ServerFrame): void;
  status(status: LinkStatus, retryInMs?: number): void;
}

/** Refusals of the hello itself: trying again cannot help, so the link stops. */
const FATAL_CODES = new Set(["auth", "not-in-instance", "wrong-channel"]);
const PING_MS = 10_000;
const SILENT_MS = 30_000;
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 15_000;

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

  constructor(
    private readonly url: string,
    private readonly hello: () => Omit<Hello, "last_seq">,
    private readonly events: LinkEvents,
  ) {}

  start(): void {
    this.stopped = false;
    this.open();
    // A page brought back to the front reconnects at once rather than at its next backoff.
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && this.retry !== null) {
        clearTimeout(this.retry);
        this.retry = null;
        this.open();
      }
    });
  }

  /** Sends an action made on the table of move count `n` under a fresh key; returns the key. */
  act(action: ActionText, n: number): string {
    const frame: Act = { op: "act", key: freshKey(), action, n };
    this.pending.set(frame.key, frame);
    this.send(frame);
    return frame.key;
  }

  /** The actions sent and not yet answered. */
  sending(): ActionText[] {
    return [...this.pending.values()].map((frame) => frame.action);
  }

  private open(): void {
    if (this.stopped) return;
    this.events.status("connecting");
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      this.heardAt = Date.now();
      this.send({ ...this.hello(), op: "hello", last_seq: this.lastSeq });
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
      this.receive(frame);
    };
    socket.onclose = () => this.dropped(socket);
    socket.onerror = () => socket.close();
  }

  private receive(frame: ServerFrame): void {
    switch (frame.op) {
      case "ready":
        this.attempt = 0;
        this.lastSeq = frame.seq;
        this.events.status("open");
        this.events.frame(frame);
        // Whatever was sent before the drop and never answered goes again, unchanged: the
        // table it was made on, not the one just received.
        for (const frame of this.pending.values()) this.send(frame);
        return;
      case "table":
        if (this.lastSeq !== null && frame.seq <= this.lastSeq) return; // old news
        this.lastSeq = frame.seq;
        break;
      case "ack":
        this.pending.delete(frame.key);
        break;
      case "error":
        if (frame.key !== null) this.pending.delete(frame.key);
        else if (FATAL_CODES.has(frame.code)) this.stop();
        break;
      case "pong":
        break;
    }
    this.events.frame(frame);
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

  private dropped(socket: WebSocket): void {
    if (socket !== this.socket) return;
    this.socket = null;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    if (this.stopped) return;
    const ceiling = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** this.attempt);
    const wait = ceiling / 2 + Math.random() * (ceiling / 2);
    this.attempt += 1;
    this.events.status("retrying", wait);
    this.retry = setTimeout(() => {
      this.retry = null;
      this.open();
    }, wait);
  }

  stop(): void {
    this.stopped = true;
    this.events.status("stopped");
    this.socket?.close();
  }
}
