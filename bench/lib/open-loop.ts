import http from "node:http";

/** One HTTP target of `openLoop`: requests go to the targets in turn. */
export interface OpenLoopTarget {
  url: string;
  headers: Record<string, string>;
}

export interface OpenLoopOptions {
  targets: readonly OpenLoopTarget[];
  /** Requests per second offered, over all targets together. */
  rate: number;
  seconds: number;
  /** The body of the `n`th request (counted over every call of this process). */
  body: (n: number) => string;
  /** Called with each answer's body; false counts it as failed. */
  onAnswer: (body: string) => boolean;
  /** Connections per target at most (requests beyond wait for one, their wait counted). */
  connectionsPerTarget: number;
}

export interface OpenLoopResult {
  /** Each answer's latency in ms from the moment its request was due, sorted. */
  latencies: number[];
  sent: number;
  answered: number;
  failed: number;
  /** Seconds from the first request due to the last answer. */
  wallS: number;
  /** The most requests in flight at once. */
  maxInFlight: number;
}

let counter = 0;

/**
 * Requests at a fixed arrival rate (open loop): the `i`th is due at start + i / rate,
 * whatever the answers before it are doing, so a slow server meets the rate it was
 * offered rather than a slower one of its own making. Latency is counted from the moment
 * a request was due, not from when it went out: a request held back (no free connection,
 * or this process busy) carries that wait, so stalls are not hidden (coordinated
 * omission). The timer sends every request due since its last turn at once.
 */
export async function openLoop(o: OpenLoopOptions): Promise<OpenLoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.connectionsPerTarget });
  const total = Math.round(o.rate * o.seconds);
  const interval = 1000 / o.rate;
  const latencies: number[] = [];
  let answered = 0;
  let failed = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let sent = 0;
  const start = performance.now();
  let lastAnswer = start;

  await new Promise<void>((resolve) => {
    const settle = (due: number, ok: boolean) => {
      const now = performance.now();
      latencies.push(now - due);
      lastAnswer = now;
      answered++;
      if (!ok) failed++;
      inFlight--;
      if (sent === total && inFlight === 0) resolve();
    };
    const send = (i: number, due: number) => {
      const target = o.targets[i % o.targets.length] as OpenLoopTarget;
      const payload = o.body(++counter);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const request = http.request(
        target.url,
        {
          method: "POST",
          agent,
          headers: { ...target.headers, "content-length": Buffer.byteLength(payload) },
        },
        (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => {
            text += chunk;
          });
          response.on("end", () => settle(due, response.statusCode === 200 && o.onAnswer(text)));
          response.on("error", () => settle(due, false));
        },
      );
      request.on("error", () => settle(due, false));
      request.end(payload);
    };
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) {
        send(sent, start + sent * interval);
        sent++;
      }
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
      else if (inFlight === 0) resolve();
    };
    tick();
  });
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { latencies, sent, answered, failed, wallS: (lastAnswer - start) / 1000, maxInFlight };
}
