import { MarketPath } from "@meridian/contracts";
import { LiveSocket, type SocketStatus, socketUrl } from "./live-socket.ts";

type Listener = (data: unknown) => void;

/**
 * One market WebSocket per page, shared by the panels: each listener registers for a
 * stream name; the socket subscribes while a stream has listeners and drops it after.
 * Reconnection and resubscription live in {@link LiveSocket}.
 */
export class MarketFeed {
  private readonly socket: LiveSocket;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly statusListeners = new Set<(s: SocketStatus) => void>();

  constructor() {
    this.socket = new LiveSocket({
      url: socketUrl(MarketPath.WS),
      onMessage: (m) => this.dispatch(m),
      onStatus: (s) => {
        for (const l of this.statusListeners) l(s);
      },
    });
  }

  start(): void {
    this.socket.start();
  }

  stop(): void {
    this.socket.stop();
  }

  get status(): SocketStatus {
    return this.socket.status;
  }

  onStatus(listener: (s: SocketStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Listens to one stream (`depth@BTCUSDT`, `kline@BTCUSDT@1m`); returns the unsubscribe. */
  on(stream: string, listener: Listener): () => void {
    let set = this.listeners.get(stream);
    if (!set) {
      set = new Set();
      this.listeners.set(stream, set);
      this.socket.subscribe([stream]);
    }
    set.add(listener);
    return () => {
      const current = this.listeners.get(stream);
      if (!current) return;
      current.delete(listener);
      if (current.size === 0) {
        this.listeners.delete(stream);
        this.socket.unsubscribe([stream]);
      }
    };
  }

  private dispatch(message: unknown): void {
    if (typeof message !== "object" || message === null) return;
    const { stream, data } = message as { stream?: unknown; data?: unknown };
    if (typeof stream !== "string") return;
    for (const l of this.listeners.get(stream) ?? []) l(data);
  }
}
