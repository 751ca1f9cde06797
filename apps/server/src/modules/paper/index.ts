import { type FeeSchedule, type MirrorLevel, priceToTicks, qtyToLots } from "@meridian/domain";
import type { FastifyInstance } from "fastify";
import type { Platform } from "../../platform/platform.ts";
import { type LedgerApi, type SessionAccount, StatementReader } from "../ledger/index.ts";
import type { MarketService } from "../market/index.ts";
import { direct, type Forwarded, type Writer } from "../writer/index.ts";
import { PaperRepo } from "./repo.ts";
import { paperHttpRoutes } from "./routes.ts";
import { PaperService } from "./service.ts";
import { paperUserStream } from "./user-stream.ts";
import type { PaperVenue } from "./venue.ts";

export { answerPlacement } from "./placement.ts";
export { presentOrder, presentTrade } from "./present.ts";
export { PaperRepo } from "./repo.ts";
export type { OrderRow, OrderWallet, TradeRow } from "./rows.ts";
export { PaperService } from "./service.ts";
export type { OrderReader, PaperTx, Placement, SpotForMargin } from "./spot-for-margin.ts";
export { type ExchangePerpQuote, LocalVenue, type MirroredBook, type PaperVenue } from "./venue.ts";
export { type SpotVolume, spotVolumes } from "./volumes.ts";

/** The market module's books and prices as a paper venue (user orders rest beside the maker's quotes). */
export function marketVenue(market: MarketService): PaperVenue {
  return {
    get symbols() {
      return market.symbols;
    },
    spec: (symbol) => market.spec(symbol),
    book: (symbol) => market.book(symbol),
    lastTicks: (symbol) => market.lastTicks(symbol),
    onPrice: (listener) =>
      market.onUpdate((update) => {
        for (const symbol of update.trades.keys()) listener(symbol);
      }),
    printTrade: (symbol, ticks) => market.printTrade(symbol, ticks),
    tradable: (symbol) => market.tradable(symbol),
    perpQuote: (symbol) => market.perpQuote(symbol),
    mirrored: () => market.mirrors,
    shownBook: (symbol) => market.shownBook(symbol),
    onBook: (listener) => market.onBook(listener),
    onExchangeTrades: (listener) =>
      market.onUpdate((update) => {
        if (!market.mirrors) return;
        for (const [symbol, trades] of update.trades) {
          const spec = market.spec(symbol);
          if (spec === undefined) continue;
          const prints: MirrorLevel[] = [];
          const times: number[] = [];
          for (const t of trades) {
            const ticks = priceToTicks(spec, t.price);
            const lots = qtyToLots(spec, t.qty);
            if (ticks.ok && lots.ok) {
              prints.push([ticks.value, lots.value]);
              times.push(t.time);
            }
          }
          if (prints.length > 0) listener(symbol, prints, times);
        }
      }),
  };
}

/** The paper service as the other modules see it: `PAPER_COMMANDS` run in the writer. */
export type PaperApi = Forwarded<PaperService, (typeof PAPER_COMMANDS)[number]>;

declare module "fastify" {
  interface FastifyInstance {
    /** Set by `registerPaper`: the paper order service (its commands answer Promises). */
    paper: PaperApi;
  }
}

export interface PaperModuleOptions {
  now?: () => number;
  /** The test-only trade endpoint; default: NODE_ENV is not production, or SPOT_TEST_TRADES=1. */
  testTrades?: boolean;
}

/** What the spot module is built on (wired by `modules/trading-core.ts`). */
export interface PaperDeps {
  /** The writer election and command bus; absent: this process is the only writer. */
  writer: Writer | undefined;
  /** The ledger writer its commands run in (its orders and trades are one of its batch writers). */
  ledger: LedgerApi;
  venue: PaperVenue;
  /** The rates an order pays (the VIP levels). */
  fees: FeeSchedule;
  /** How `/v1/ws/user` finds a socket's paper account (the ledger's `sessionAccount`). */
  sessionAccount: SessionAccount;
}

/**
 * Spot trading: rebuilds the books' user orders from the database (after the ledger
 * writer loaded the balances), then serves `/v1/paper/*` and `/v1/ws/user`. Several
 * instances: the engine runs on the elected writer only, and commands from the others
 * reach it over the command bus. Answers the forwarded service (`.local`: the
 * writer-side `PaperService`).
 */
export async function registerPaper(
  api: FastifyInstance,
  platform: Platform,
  deps: PaperDeps,
  options: PaperModuleOptions = {},
): Promise<PaperApi> {
  const { writer, ledger, venue, fees } = deps;
  const real = new PaperService({
    repo: new PaperRepo(platform.db),
    venue,
    ledger: ledger.local,
    fees,
    ...(options.now === undefined ? {} : { now: options.now }),
    onError: (err, msg) => api.log.error({ err }, msg),
  });
  // Commands run in the writer; reads of committed state here (docs/architecture.md).
  const service: PaperApi =
    writer === undefined
      ? direct(real, PAPER_COMMANDS)
      : writer.forward(real, "paper", PAPER_COMMANDS, (m, args) => m === "place" && hasClientId(args[2]));
  if (writer === undefined) await real.start();
  else {
    const bus = writer.bus;
    if (bus !== undefined) real.onPushed = (tradeId) => bus.mark("paper:trade", tradeId);
    await writer.role.onStart(async () => real.start((await bus?.readMark("paper:trade")) ?? null));
  }
  api.decorate("paper", service);
  const testTrades =
    options.testTrades ?? (process.env.NODE_ENV !== "production" || process.env.SPOT_TEST_TRADES === "1");
  paperHttpRoutes(api, service, ledger, new StatementReader(platform.db), testTrades ? venue : undefined);
  paperUserStream(api, service, ledger, writer, deps.sessionAccount);
  api.addHook("onClose", async () => {
    await real.close();
  });
  return service;
}

/** What runs in the writer: every command, and the reads of its in-memory state. */
const PAPER_COMMANDS = [
  "place",
  "cancel",
  "topUp",
  "reset",
  "liveOrderIds",
] as const satisfies readonly (keyof PaperService)[];

function hasClientId(body: unknown): boolean {
  return (
    typeof body === "object" &&
    body !== null &&
    typeof (body as { clientOrderId?: unknown }).clientOrderId === "string"
  );
}
