import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * A second Meridian process as the upstream exchange of the live-feed tests
 * (`upstream-exchange.ts`), and the waiting those tests do.
 */
const UPSTREAM_ENTRY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "upstream-exchange.ts");

export interface Upstream {
  readonly url: string;
  readonly child: ChildProcess;
  /**
   * Prints a market trade on the upstream (`trade` on its standard input) and resolves
   * once it answered; false when it refused the line.
   */
  print(symbol: string, price: string, qty: string): Promise<boolean>;
}

/** Starts the upstream on `port` with the model feed, `env` on top (MARKET_TICK_MS, ...). */
export async function startUpstream(port: number, env: Record<string, string> = {}): Promise<Upstream> {
  const child = spawn(process.execPath, [UPSTREAM_ENTRY], {
    env: {
      ...process.env,
      MARKET_FEED: "model",
      MARKET_FEED_URL: undefined,
      MARKET_SYMBOLS: undefined,
      PORT: String(port),
      LOG_LEVEL: "silent",
      ...env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  const answered = new Map<string, Array<(ok: boolean) => void>>();
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    for (let nl = out.indexOf("\n"); nl >= 0; nl = out.indexOf("\n")) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      const m = /^(printed|refused) (.*)$/.exec(line);
      if (m?.[2] !== undefined) answered.get(m[2])?.shift()?.(m[1] === "printed");
      else urlLine(line);
    }
  });
  let urlLine: (line: string) => void = () => {};
  let err = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    urlLine = (line) => {
      const m = /^upstream (\S+)/.exec(line);
      if (m?.[1] !== undefined) resolve(m[1]);
    };
    child.once("exit", (code) => reject(new Error(`upstream exited ${code}: ${out}${err}`)));
  });
  const print = (symbol: string, price: string, qty: string) =>
    new Promise<boolean>((resolve) => {
      const line = `trade ${symbol} ${price} ${qty}`;
      const waiting = answered.get(line) ?? [];
      waiting.push(resolve);
      answered.set(line, waiting);
      child.stdin?.write(`${line}\n`);
    });
  return { url, child, print };
}

export async function killUpstream(u: Upstream): Promise<void> {
  if (u.child.exitCode !== null) return;
  const gone = new Promise((r) => u.child.once("exit", r));
  u.child.kill("SIGKILL");
  await gone;
}

/** Polls `check` until it returns a value other than undefined, or fails after `ms`. */
export async function until<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what}: not within ${ms} ms ${last === undefined ? "" : String(last)}`);
}
