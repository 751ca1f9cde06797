import type { FeeSchedule } from "@meridian/domain";
import type { FastifyInstance } from "fastify";
import type { Platform } from "../../platform/platform.ts";
import type { LedgerWriter, SessionAccount } from "../ledger/index.ts";
import { carriesClientId, direct, type Forwarded, type Writer } from "../writer/index.ts";
import type { PerpBook } from "./book.ts";
import { FuturesRepo } from "./repo.ts";
import { futuresHttpRoutes } from "./routes.ts";
import { FuturesService } from "./service.ts";
import { futuresStream } from "./stream.ts";

export { venueBook } from "./book.ts";
export type { AttachedTpsl, FuturesTransferDone } from "./commands.ts";
export type { FuturesOrderRef } from "./history.ts";
export type { MarkPriceKind } from "./marks.ts";
export type { FundingRateRow, TransferQuery, TransferRecordRow } from "./repo.ts";
export { FuturesRepo } from "./repo.ts";
export { FuturesService, type MarkCandle } from "./service.ts";
export { type RecordTransfer, WalletTransferIds } from "./transfer-ids.ts";
export { type FuturesVolume, futuresVolumes } from "./volumes.ts";

export interface FuturesModuleOptions {
  now?: () => number;
  /** Default: FUNDING_INTERVAL_MS from the environment, else 8 h. */
  fundingIntervalMs?: number;
  /** The test-only mark endpoint; default: NODE_ENV is not production, or FUTURES_TEST_MARKS=1. */
  testMarks?: boolean;
}

/** The futures service as the other modules see it: `FUTURES_COMMANDS` run in the writer. */
export type FuturesApi = Forwarded<FuturesService, (typeof FUTURES_COMMANDS)[number]>;

declare module "fastify" {
  interface FastifyInstance {
    /** Set by `registerFutures`: USDT-M and coin-M perpetuals on paper (its commands answer Promises). */
    futures: FuturesApi;
  }
}

function envInterval(): number | undefined {
  const v = Number(process.env.FUNDING_INTERVAL_MS);
  return Number.isInteger(v) && v >= 1_000 ? v : undefined;
}

/** What futures is built on (wired by `modules/trading-core.ts`). */
export interface FuturesDeps {
  writer: Writer | undefined;
  /** Its commands run in the ledger writer's group commit. */
  ledger: LedgerWriter;
  /** The books its orders take from (`venueBook` over the spot venue). */
  book: PerpBook;
  /** Each account's fee rates (its VIP level's USDT-M rates, read at each fill). */
  fees: FeeSchedule;
  /** How `/v1/ws/futures` finds a socket's paper account (the ledger's `sessionAccount`). */
  sessionAccount: SessionAccount;
}

/** USDT-M and coin-M perpetuals: `/v1/paper/futures/*` and `/v1/ws/futures`. Answers the forwarded service. */
export async function registerFutures(
  api: FastifyInstance,
  platform: Platform,
  deps: FuturesDeps,
  options: FuturesModuleOptions = {},
): Promise<FuturesApi> {
  const { writer, ledger, book, fees } = deps;
  const fundingIntervalMs = options.fundingIntervalMs ?? envInterval();
  const real = new FuturesService({
    ledger,
    repo: new FuturesRepo(platform.db),
    book,
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(fundingIntervalMs === undefined ? {} : { fundingIntervalMs }),
    feeRates: (accountId) => fees.futuresRates(accountId),
    onError: (err, msg) => api.log.error({ err }, msg),
  });
  const service: FuturesApi =
    writer === undefined
      ? direct(real, FUTURES_COMMANDS)
      : writer.forward(real, "futures", FUTURES_COMMANDS, retrySafe);
  // Marks follow the prices on every instance; the engine runs on the writer.
  real.followMarks();
  if (writer === undefined) await real.start();
  else await writer.role.onStart(() => real.start());
  api.decorate("futures", service);
  const testMarks =
    options.testMarks ?? (process.env.NODE_ENV !== "production" || process.env.FUTURES_TEST_MARKS === "1");
  futuresHttpRoutes(api, service, testMarks);
  futuresStream(api, service, writer, deps.sessionAccount);
  api.addHook("onClose", async () => {
    await real.close();
  });
  return service;
}

/**
 * What runs in the writer: every command, and the reads of its in-memory state
 * (positions, account, settings). Order and trade history are read here from the
 * database, marks from this instance's prices.
 */
const FUTURES_COMMANDS = [
  "place",
  "cancel",
  "closeAll",
  "setTpsl",
  "transfer",
  "adjustMargin",
  "marginInfo",
  "setLeverage",
  "setMarginMode",
  "setPositionMode",
  "settings",
  "settingsAll",
  "account",
  "wallets",
  "coinWalletsInUse",
  "positions",
  "pinMark",
  "insuranceFund",
  "openInterest",
] as const satisfies readonly (keyof FuturesService)[];

/**
 * What a new writer may run again after the old one went away unanswered: placements and
 * transfers that carry a client id (the writer finds what the first attempt committed).
 */
function retrySafe(m: string, args: unknown[]): boolean {
  if (m === "place" || m === "setTpsl") return carriesClientId(args[1], "clientOrderId");
  return m === "transfer" && carriesClientId(args[1], "clientTransferId");
}
