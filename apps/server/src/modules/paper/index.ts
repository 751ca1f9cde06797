import type { FastifyInstance } from "fastify";
import type { Platform } from "../../platform/platform.ts";
import type { MarketService } from "../market/index.ts";
import { direct, type Forwarded, type Writer } from "../writer/index.ts";
import { PaperRepo } from "./repo.ts";
import { paperHttpRoutes } from "./routes.ts";
import { PaperService } from "./service.ts";
import { StatementReader } from "./statement.ts";
import { paperUserStream } from "./user-stream.ts";
import { LocalVenue, type PaperVenue } from "./venue.ts";

export { paperAccountId, paperGuard } from "./guard.ts";
export { answerPlacement } from "./placement.ts";
export { presentOrder, presentTrade } from "./present.ts";
export { PaperRepo } from "./repo.ts";
export type { OrderRow, OrderWallet, TradeRow } from "./rows.ts";
export { PaperService } from "./service.ts";
export type { OrderReader, PaperTx, Placement, SpotForMargin } from "./spot-for-margin.ts";
export { type ExchangePerpQuote, LocalVenue, type PaperVenue } from "./venue.ts";

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
  /** Default: the market module's books (`api.market`), else a stand-alone `LocalVenue`. */
  venue?: PaperVenue;
  now?: () => number;
  onService?: (service: PaperService) => void;
  /** The test-only trade endpoint; default: NODE_ENV is not production, or SPOT_TEST_TRADES=1. */
  testTrades?: boolean;
}

/** What the spot module and its ledger writer are built on (wired by `modules/trading-core.ts`). */
export interface PaperDeps {
  /** The writer election and command bus; absent: this process is the only writer. */
  writer: Writer | undefined;
  venue: PaperVenue;
}

/**
 * Paper trading as a stand-alone module (tests): its dependencies from what registered
 * before it (`api.writer`, `api.market`). The site composes it in `trading-core.ts`.
 */
export function paperModule(options: PaperModuleOptions = {}) {
  return async function paperRoutes(api: FastifyInstance, platform: Platform): Promise<void> {
    const venue = options.venue ?? (api.hasDecorator("market") ? marketVenue(api.market) : new LocalVenue());
    await registerPaper(
      api,
      platform,
      { writer: api.hasDecorator("writer") ? api.writer : undefined, venue },
      options,
    );
  };
}

/**
 * Spot trading and the ledger writer: rebuilds the books' user orders from the database,
 * then serves `/v1/paper/*` and `/v1/ws/user`. Several instances: the engine runs on
 * the elected writer only, and commands from the others reach it over the command bus.
 * Answers the forwarded service (`.local`: the writer-side `PaperService`).
 */
export async function registerPaper(
  api: FastifyInstance,
  platform: Platform,
  deps: PaperDeps,
  options: PaperModuleOptions = {},
): Promise<PaperApi> {
  const { writer, venue } = deps;
  const real = new PaperService({
    repo: new PaperRepo(platform.db, writer === undefined ? null : (tx) => writer.fence(tx)),
    venue,
    ...(options.now === undefined ? {} : { now: options.now }),
    onError: (err, msg) => api.log.error({ err }, msg),
  });
  // Commands run in the writer; reads of committed state here (docs/architecture.md).
  const service: PaperApi =
    writer === undefined
      ? direct(real, PAPER_COMMANDS)
      : writer.forward(real, "paper", PAPER_COMMANDS, (m, args) => m === "place" && hasClientId(args[2]));
  real.creator = (userId, empty) => service.createAccount(userId, empty);
  if (writer === undefined) await real.start();
  else {
    const bus = writer.bus;
    if (bus !== undefined) real.onPushed = (tradeId) => bus.mark("paper:trade", tradeId);
    await writer.role.onStart(async () => real.start((await bus?.readMark("paper:trade")) ?? null));
  }
  options.onService?.(real);
  api.decorate("paper", service);
  const testTrades =
    options.testTrades ?? (process.env.NODE_ENV !== "production" || process.env.SPOT_TEST_TRADES === "1");
  paperHttpRoutes(api, service, new StatementReader(platform.db), testTrades ? venue : undefined);
  paperUserStream(api, service);
  api.addHook("onClose", async () => {
    await real.close();
  });
  return service;
}

/** What runs in the writer: every command, and the reads of its in-memory state. */
const PAPER_COMMANDS = [
  "createAccount",
  "place",
  "cancel",
  "topUp",
  "reset",
  "liveOrderIds",
  "ledgerBalance",
  "ledgerBalances",
] as const satisfies readonly (keyof PaperService)[];

function hasClientId(body: unknown): boolean {
  return (
    typeof body === "object" &&
    body !== null &&
    typeof (body as { clientOrderId?: unknown }).clientOrderId === "string"
  );
}
