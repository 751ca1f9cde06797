import type { Envelope } from "@meridian/contracts";
import { priceToTicks, qtyToLots, Side } from "@meridian/domain";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import type { LedgerService } from "../modules/ledger/index.ts";
import { LocalVenue, type PaperService, paperModule } from "../modules/paper/index.ts";
import type { PlatformDb } from "../platform/db/index.ts";
import type { ModuleRoutes } from "../platform/platform.ts";
import { type AccountsTestApp, accountsTestApp, callApi } from "./accounts.ts";

export interface PaperTestApp extends AccountsTestApp {
  paper: PaperService;
  /** The ledger writer the paper module runs in (accounts, balances, the group commit). */
  ledger: LedgerService;
  venue: LocalVenue;
  db: PlatformDb;
}

/**
 * Accounts, paper trading and then `modules` on `db`, trading on `venue` (default: a venue
 * without the maker's ladder, so prices are exact).
 */
export async function paperTestApp(
  db: PlatformDb,
  {
    venue = new LocalVenue({ ladder: false }),
    modules = [],
  }: { venue?: LocalVenue; modules?: readonly ModuleRoutes[] } = {},
): Promise<PaperTestApp> {
  let paper: PaperService | undefined;
  let ledger: LedgerService | undefined;
  const base = await accountsTestApp({
    db,
    modules: [
      paperModule({ venue, onService: (s) => (paper = s), onLedger: (l) => (ledger = l) }),
      ...modules,
    ],
  });
  if (paper === undefined || ledger === undefined) throw new Error("paper module missing");
  return { ...base, paper, ledger, venue, db };
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
