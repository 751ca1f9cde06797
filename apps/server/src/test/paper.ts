import type { Envelope } from "@meridian/contracts";
import { priceToTicks, qtyToLots, Side } from "@meridian/domain";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { type TradingCore, type TradingCoreOptions, tradingCore } from "../modules/index.ts";
import type { LedgerService } from "../modules/ledger/index.ts";
import { LocalVenue } from "../modules/paper/index.ts";
import type { PlatformDb } from "../platform/db/index.ts";
import type { ModuleRoutes } from "../platform/platform.ts";
import { type AccountsTestApp, accountsTestApp, callApi } from "./accounts.ts";

export interface PaperTestApp
  extends AccountsTestApp,
    Pick<TradingCore, "ledger" | "paper" | "futures" | "margin" | "subAccounts" | "vip"> {
  venue: LocalVenue;
  db: PlatformDb;
}

/**
 * Accounts and the trading core as the site builds it (`tradingCore`), then `modules`, on
 * `db`: trading on `venue` (default: a venue without the maker's ladder, so prices are
 * exact) instead of the market module, without the writer election (one process), with
 * `core`'s other overrides.
 */
export async function paperTestApp(
  db: PlatformDb,
  {
    venue = new LocalVenue({ ladder: false }),
    core = {},
    modules = [],
  }: {
    venue?: LocalVenue;
    core?: Omit<TradingCoreOptions, "venue" | "onBuilt">;
    modules?: readonly ModuleRoutes[];
  } = {},
): Promise<PaperTestApp> {
  let built: TradingCore | undefined;
  const base = await accountsTestApp({
    db,
    modules: [tradingCore({ writer: false, ...core, venue, onBuilt: (c) => (built = c) }), ...modules],
  });
  if (built === undefined) throw new Error("trading core missing");
  const { ledger, paper, futures, margin, subAccounts, vip } = built;
  return { ...base, ledger, paper, futures, margin, subAccounts, vip, venue, db };
}

/** The simulation header every `/v1/paper/*` call needs. */
export const PAPER_HEADERS: Readonly<Record<string, string>> = { paptrading: "1" };

/** `callApi` with the simulation header unless other `headers` are given (`{}` for none). */
export function paperCall<T>(
  app: FastifyInstance,
  cookie: string,
  method: "GET" | "POST" | "DELETE",
  url: string,
  body?: unknown,
  headers: Record<string, string> = PAPER_HEADERS,
): Promise<Envelope<T>> {
  return callApi<T>(app, cookie, method, url, body, headers);
}

/** A resting maker order on `venue`'s book, price and quantity in the symbol's units. */
export function makerQuote(
  venue: LocalVenue,
  symbol: string,
  side: "BUY" | "SELL",
  price: string,
  qty: string,
): void {
  const spec = venue.spec(symbol);
  if (spec === undefined) throw new Error(`no ${symbol}`);
  const ticks = priceToTicks(spec, price);
  const lots = qtyToLots(spec, qty);
  if (!ticks.ok || !lots.ok) throw new Error(`bad quote ${side} ${qty} ${symbol} at ${price}`);
  venue.makerOrder(symbol, side === "BUY" ? Side.Buy : Side.Sell, ticks.value, lots.value);
}

/** The ledger after every commit: the journal replays to the balances and every asset sums to zero. */
export async function expectConserved(ledger: LedgerService): Promise<void> {
  await ledger.flush();
  const audit = await ledger.audit();
  expect(audit.replayEqualsBalances).toBe(true);
  for (const sum of Object.values(audit.assetSums)) expect(sum).toBe("0");
}
