import { describe, expect, it } from "vitest";
import { backoffDelay, LiveSocket, type SocketLike } from "./live-socket.ts";

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  closed = false;
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({});
  }
  push(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

function harness() {
  const sockets: FakeSocket[] = [];
  const timeouts: Array<{ fn: () => void; ms: number }> = [];
  const intervals: Array<{ fn: () => void; ms: number }> = [];
  const received: unknown[] = [];
  let now = 0;
  const live = new LiveSocket({
    url: "ws://x/v1/ws/market",
    onMessage: (m) => received.push(m),
    create: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s;
    },
    random: () => 1,
    minDelayMs: 500,
    maxDelayMs: 4000,
    pingMs: 1000,
    now: () => now,
    timers: {
      setTimeout: (fn, ms) => timeouts.push({ fn, ms }),
      clearTimeout: () => {},
      setInterval: (fn, ms) => intervals.push({ fn, ms }),
      clearInterval: () => {},
    },
  });
  return { live, sockets, timeouts, intervals, received, tick: (ms: number) => (now += ms) };
}

describe("LiveSocket", () => {
  it("backs off exponentially with jitter, capped", () => {
    expect(backoffDelay(0, 500, 4000, () => 0)).toBe(250);
    expect(backoffDelay(0, 500, 4000, () => 1)).toBe(500);
    expect(backoffDelay(3, 500, 4000, () => 1)).toBe(4000);
    expect(backoffDelay(10, 500, 4000, () => 1)).toBe(4000);
  });

  it("subscribes on open, resubscribes after a reconnect, backs off between tries", () => {
    const h = harness();
    h.live.subscribe(["ticker@BTCUSDT"]);
    h.live.start();
    h.sockets[0]?.open();
    expect(h.sockets[0]?.sent).toEqual([JSON.stringify({ op: "subscribe", args: ["ticker@BTCUSDT"] })]);
    h.live.subscribe(["depth@BTCUSDT", "ticker@BTCUSDT"]);
    expect(h.sockets[0]?.sent[1]).toBe(JSON.stringify({ op: "subscribe", args: ["depth@BTCUSDT"] }));

    h.sockets[0]?.drop();
    expect(h.live.status).toBe("closed");
    expect(h.timeouts.map((t) => t.ms)).toEqual([500]);
    h.timeouts[0]?.fn();
    h.sockets[1]?.drop();
    expect(h.timeouts.map((t) => t.ms)).toEqual([500, 1000]);
    h.timeouts[1]?.fn();
    h.sockets[2]?.open();
    expect(h.sockets[2]?.sent).toEqual([
      JSON.stringify({ op: "subscribe", args: ["ticker@BTCUSDT", "depth@BTCUSDT"] }),
    ]);
    h.sockets[2]?.drop();
    expect(h.timeouts[2]?.ms).toBe(500);
  });

  it("answers server pings, pings itself and replaces a silent link", () => {
    const h = harness();
    h.live.start();
    h.sockets[0]?.open();
    h.sockets[0]?.push({ event: "ping", time: 1 });
    h.sockets[0]?.push({ stream: "ticker@BTCUSDT", data: {} });
    expect(h.sockets[0]?.sent).toEqual([JSON.stringify({ op: "pong" })]);
    expect(h.received).toEqual([{ stream: "ticker@BTCUSDT", data: {} }]);
    h.tick(1000);
    h.intervals[0]?.fn();
    expect(h.sockets[0]?.sent[1]).toBe(JSON.stringify({ op: "ping" }));
    h.tick(3500);
    h.intervals[0]?.fn();
    expect(h.sockets[0]?.closed).toBe(true);
    expect(h.timeouts).toHaveLength(1);
  });

  it("stays down after stop", () => {
    const h = harness();
    h.live.start();
    h.sockets[0]?.open();
    h.live.stop();
    expect(h.sockets[0]?.closed).toBe(true);
    expect(h.timeouts).toHaveLength(0);
  });
});
