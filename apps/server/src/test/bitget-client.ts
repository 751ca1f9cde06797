// ccxt clients pointed at one of our servers (the bot API tests, the cluster test, `bench:api`).
import ccxt from "ccxt";

const loaded = new Map<string, unknown[]>();

type Message = { event?: unknown; arg?: { channel?: unknown } } | null;
const listeners = new WeakMap<object, Set<(message: Message) => void>>();

/**
 * Lets a test see each WebSocket message before ccxt handles it (then hands it on
 * unchanged): ccxt binds `handleMessage` when it opens a socket, so this runs first.
 */
function observeMessages(ex: object): void {
  const target = ex as { handleMessage(client: unknown, message: unknown): unknown };
  const handle = target.handleMessage.bind(ex);
  const set = new Set<(message: Message) => void>();
  listeners.set(ex, set);
  target.handleMessage = (client, message) => {
    for (const listener of set) listener(message as Message);
    return handle(client, message);
  };
}

/**
 * Resolves when the server acknowledges a subscription to `channel` on this client
 * (Bitget's `{"event":"subscribe","arg":{channel}}`): from then on every push reaches
 * it. Call before the `watch*` that subscribes; a test then acts without guessing a delay.
 */
export function subscribed(ex: object, channel: string): Promise<void> {
  const set = listeners.get(ex);
  if (set === undefined) throw new Error("not a client made by bitgetClient");
  return new Promise((resolve) => {
    const listener = (m: Message) => {
      if (m?.event !== "subscribe" || m.arg?.channel !== channel) return;
      set.delete(listener);
      resolve();
    };
    set.add(listener);
  });
}

/** Calls `listener` with every WebSocket message this client receives, until the answer is called. */
export function onMessages(ex: object, listener: (message: unknown) => void): () => void {
  const set = listeners.get(ex);
  if (set === undefined) throw new Error("not a client made by bitgetClient");
  set.add(listener);
  return () => set.delete(listener);
}

/** The REST url keys of ccxt's bitget class (ccxt appends `/api/...`). */
const URL_KEYS = [
  "spot",
  "mix",
  "user",
  "p2p",
  "broker",
  "margin",
  "common",
  "tax",
  "convert",
  "copy",
  "earn",
  "uta",
];

/**
 * ccxt's own `bitget` (pro) class in sandbox mode with only its URLs pointed at `base`:
 * nothing of ccxt is patched. `options.uta = false` skips its unified-account probe.
 */
export async function bitgetClient(
  base: string,
  key: { apiKey: string; secret?: string | undefined; passphrase: string } | undefined,
  options: Record<string, unknown> = {},
) {
  const ws = base.replace(/^http/, "ws");
  const ex = new ccxt.pro.bitget({
    ...(key === undefined ? {} : { apiKey: key.apiKey, secret: key.secret ?? "", password: key.passphrase }),
    enableRateLimit: false,
    timeout: 10_000,
    options: { uta: false, defaultType: "spot", ...options },
  });
  const api = ex.urls.api as Record<string, unknown>;
  for (const k of URL_KEYS) api[k] = base;
  const sockets = { public: `${ws}/v2/ws/public`, private: `${ws}/v2/ws/private` };
  api.ws = { ...(api.ws as object), ...sockets };
  api.demo = { ...(api.demo as object), ...sockets };
  ex.setSandboxMode(true);
  observeMessages(ex);
  await ex.loadHttpProxyAgent();
  // Markets are the same for every client of a server: loaded once, then shared, as a bot
  // fleet would (and so tests that make many clients stay under the public rate limits).
  const known = loaded.get(base);
  if (known !== undefined) ex.setMarkets(known);
  else {
    await ex.loadMarkets();
    loaded.set(base, Object.values(ex.markets ?? {}));
  }
  return ex;
}
