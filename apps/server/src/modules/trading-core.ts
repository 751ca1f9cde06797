import { type FeeSchedule, vipFeeSchedule } from "@meridian/domain";
import type { FastifyInstance } from "fastify";
import type { Platform } from "../platform/platform.ts";
import { apiKeyDirectory, type BotApiModuleOptions, botApiModule } from "./bot-api/index.ts";
import {
  type FuturesModuleOptions,
  type FuturesService,
  futuresVolumes,
  registerFutures,
  venueBook,
} from "./futures/index.ts";
import { type LedgerService, registerLedger, sessionAccount } from "./ledger/index.ts";
import { type MarginModuleOptions, type MarginService, marginDebts, registerMargin } from "./margin/index.ts";
import { type MarketModuleOptions, type MarketService, registerMarket } from "./market/index.ts";
import {
  marketVenue,
  type PaperModuleOptions,
  type PaperService,
  type PaperVenue,
  registerPaper,
  spotVolumes,
} from "./paper/index.ts";
import { type PorService, registerPor } from "./por/index.ts";
import { registerSubAccounts, type SubAccountsService } from "./subaccounts/index.ts";
import { registerVip, type VipService } from "./vip/index.ts";
import { registerWriter, type Writer, type WriterModuleOptions } from "./writer/index.ts";

/** What the site changes for a run (tests): each field replaces a default; none in production. */
export interface TradingCoreOptions {
  /** The writer election; `false`: none (one process, always the writer). */
  writer?: WriterModuleOptions | false;
  /** The market module (price feed, maker books); the site passes the listed airdrop tokens. */
  market?: MarketModuleOptions;
  /** The books spot and futures trade on; default: the market module's (then no market is built here otherwise). */
  venue?: PaperVenue;
  /** The fees orders pay; default: the VIP levels (`vipFeeSchedule` over `VipService`). */
  fees?: FeeSchedule;
  paper?: PaperModuleOptions;
  futures?: FuturesModuleOptions;
  margin?: MarginModuleOptions;
  botApi?: BotApiModuleOptions;
  /** Heard with the writer-side services once all are built (tests read them). */
  onBuilt?: (core: TradingCore) => void;
}

/** The writer-side services the root built. */
export interface TradingCore {
  writer: Writer | undefined;
  market: MarketService | undefined;
  venue: PaperVenue;
  ledger: LedgerService;
  paper: PaperService;
  futures: FuturesService;
  margin: MarginService;
  subAccounts: SubAccountsService;
  vip: VipService;
  por: PorService;
}

/**
 * The composition root of the trading core: the one place the writer, the market and the
 * modules that trade or report on balances are built, each given its dependencies as
 * arguments, in the order those dependencies exist. The writer elects the instance that
 * runs the engines and the price feed; the market's books are the venue; the ledger
 * writer (`modules/ledger`: accounts, group commit, journal, balances and holds, user
 * events) comes before the modules whose batch writers it commits; VIP levels, measured
 * through the ledger's read interface, are the fee schedule of spot and futures; spot,
 * futures and margin are peers; sub-accounts move money between them; proof of
 * reserves reads the ledger; the bot API trades through them all. Tests build the same
 * root with `options`.
 */
export function tradingCore(options: TradingCoreOptions = {}) {
  return async function tradingCoreRoutes(api: FastifyInstance, platform: Platform): Promise<void> {
    const writer = options.writer === false ? undefined : await registerWriter(api, platform, options.writer);
    const market =
      options.venue === undefined
        ? await registerMarket(api, platform, { ...options.market, writer })
        : undefined;
    const venue = options.venue ?? (market === undefined ? undefined : marketVenue(market));
    if (venue === undefined) throw new Error("trading core: no venue");
    // The accounts module registers first (its gateway hooks cover every route); the
    // root reads it here and passes it on.
    const security = api.accounts;
    const accounts = security.service;
    const ledgerApi = await registerLedger(api, platform, { writer });
    const ledger = ledgerApi.local;
    // VIP levels read each trading module's fills, and margin's debts, through the owner's
    // read, by SQL on its own tables.
    const db = platform.db;
    const vip = registerVip(api, platform, {
      accounts,
      ledger: ledger.repo,
      venue,
      volumes: {
        spot: (since, ids) => spotVolumes(db, since, ids),
        futures: (since, ids) => futuresVolumes(db, since, ids),
      },
      debts: () => marginDebts(db),
    });
    const fees = options.fees ?? vipFeeSchedule((accountId) => vip.levelOfAccount(accountId));
    // The user streams of spot and futures log a socket in through the accounts service.
    const streamAccount = sessionAccount(accounts, ledger);
    const paper = await registerPaper(
      api,
      platform,
      { writer, ledger: ledgerApi, venue, fees, sessionAccount: streamAccount },
      options.paper,
    );
    const futures = await registerFutures(
      api,
      platform,
      { writer, ledger, book: venueBook(venue), fees, sessionAccount: streamAccount },
      options.futures,
    );
    const margin = await registerMargin(
      api,
      platform,
      { writer, ledger, spot: paper.local, futures: futures.local },
      options.margin,
    );
    const subAccounts = registerSubAccounts(api, platform, {
      writer,
      accounts,
      ledger,
      paper: paper.local,
      futures: futures.local,
      margin: margin.local,
    });
    const por = await registerPor(api, platform, { ledger, accounts: ledgerApi });
    await botApiModule(
      { accounts, ledger: ledgerApi, paper, futures, margin, market, writer },
      {
        ...options.botApi,
        // The account security page lists the keys of this store.
        onStore: (store) => {
          security.listApiKeysFrom(apiKeyDirectory(store));
          options.botApi?.onStore?.(store);
        },
      },
    )(api, platform);
    options.onBuilt?.({
      writer,
      market,
      venue,
      ledger,
      paper: paper.local,
      futures: futures.local,
      margin: margin.local,
      subAccounts: subAccounts.local,
      vip,
      por,
    });
  };
}
