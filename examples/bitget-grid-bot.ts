/**
 * A small ccxt bot for Meridian's paper exchange, written exactly as for Bitget's demo
 * trading: a buy/sell grid around the BTC/USDT price, then a BTC/USDT perpetual long with
 * a take-profit and a stop-loss. Only the base URL differs from Bitget.
 *
 *   MERIDIAN_URL=http://127.0.0.1:3000 API_KEY=bg_... API_SECRET=... API_PASSPHRASE=... \
 *     npx node examples/bitget-grid-bot.ts
 *
 * Make the key at /account/newapi with the read, spot trade, futures trade and transfer
 * permissions. See docs/bot-api.md.
 */
import ccxt from "ccxt";

export interface BotOptions {
  /** The Meridian site, without `/api` (ccxt appends it). */
  baseUrl: string;
  apiKey: string;
  secret: string;
  passphrase: string;
  /** Grid levels on each side of the price (default 3), `stepPct` apart (default 0.5). */
  levels?: number;
  stepPct?: number;
  log?: (line: string) => void;
}

export interface BotResult {
  gridOrderIds: string[];
  futuresOrderId: string;
  position: { side: string | undefined; contracts: number | undefined; entryPrice: number | undefined };
}

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

export function connect(o: Pick<BotOptions, "baseUrl" | "apiKey" | "secret" | "passphrase">) {
  const exchange = new ccxt.bitget({
    apiKey: o.apiKey,
    secret: o.secret,
    password: o.passphrase,
    options: { uta: false, defaultType: "spot" },
  });
  const api = exchange.urls.api as Record<string, unknown>;
  for (const k of URL_KEYS) api[k] = o.baseUrl;
  exchange.setSandboxMode(true);
  return exchange;
}

export async function runBot(o: BotOptions): Promise<BotResult> {
  const log = o.log ?? console.log;
  const levels = o.levels ?? 3;
  const step = (o.stepPct ?? 0.5) / 100;
  const exchange = connect(o);
  await exchange.loadMarkets();

  // 1. A grid on BTC/USDT: buys below the price, sells above, 0.001 BTC each.
  const spot = "BTC/USDT";
  const { last } = await exchange.fetchTicker(spot);
  if (last === undefined) throw new Error("no BTC/USDT price");
  const gridOrderIds: string[] = [];
  for (let i = 1; i <= levels; i++) {
    for (const [side, price] of [
      ["buy", last * (1 - step * i)],
      ["sell", last * (1 + step * i)],
    ] as const) {
      const order = await exchange.createOrder(
        spot,
        "limit",
        side,
        0.001,
        Number(exchange.priceToPrecision(spot, price)),
      );
      if (order.id !== undefined) gridOrderIds.push(order.id);
      log(`grid ${side} 0.001 BTC at ${exchange.priceToPrecision(spot, price)}: ${order.id}`);
    }
  }
  const open = await exchange.fetchOpenOrders(spot);
  log(`${open.length} grid orders open`);

  // 2. Futures: margin from spot, 5x, a market long with TP +3 % and SL -3 %.
  const perp = "BTC/USDT:USDT";
  await exchange.transfer("USDT", 1000, "spot", "swap");
  await exchange.setLeverage(5, perp);
  const mark = (await exchange.fetchTicker(perp)).last ?? last;
  const order = await exchange.createOrder(perp, "market", "buy", 0.01, undefined, {
    takeProfit: { triggerPrice: Number(exchange.priceToPrecision(perp, mark * 1.03)) },
    stopLoss: { triggerPrice: Number(exchange.priceToPrecision(perp, mark * 0.97)) },
  });
  const [position] = await exchange.fetchPositions([perp]);
  log(`futures long ${position?.contracts} BTC at ${position?.entryPrice} (order ${order.id})`);
  return {
    gridOrderIds,
    futuresOrderId: order.id ?? "",
    position: { side: position?.side, contracts: position?.contracts, entryPrice: position?.entryPrice },
  };
}

if (import.meta.main) {
  const env = process.env;
  const need = (name: string) => {
    const v = env[name];
    if (v === undefined || v === "") throw new Error(`set ${name}`);
    return v;
  };
  await runBot({
    baseUrl: env.MERIDIAN_URL ?? "http://127.0.0.1:3000",
    apiKey: need("API_KEY"),
    secret: need("API_SECRET"),
    passphrase: need("API_PASSPHRASE"),
  });
}
