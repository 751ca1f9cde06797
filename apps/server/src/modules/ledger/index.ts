import type { FastifyInstance } from "fastify";
import type { Platform } from "../../platform/platform.ts";
import { direct, type Forwarded, type Writer } from "../writer/index.ts";
import { createLedgerWriter, type LedgerService } from "./writer.ts";

export { type AccountRow, initialAmounts } from "./accounts.ts";
export {
  type ClientOrderRef,
  GroupCommit,
  type GroupCommitTarget,
  type Placement,
  type StoredOrders,
} from "./group-commit.ts";
export { paperAccountId, paperGuard, type SessionAccount, sessionAccount } from "./guard.ts";
export { type EntryRow, emptyJournalBatch, Journal, type JournalBatch } from "./journal.ts";
export type { LedgerRepo } from "./repo.ts";
export { StatementReader } from "./statement.ts";
export { InsertInto, RowBuffer, writeJournal } from "./store.ts";
export {
  type BatchWriter,
  createLedgerWriter,
  type LedgerService,
  type LedgerTx,
  type LedgerWriterDeps,
  queuedBatchWriter,
} from "./writer.ts";

/**
 * The ledger writer as spot, margin and futures use it: one ledger (balances and holds
 * as postings in one journal) and one group commit, on the elected writer only.
 * `transact` runs a module's command there and settles once its commit is durable.
 */
export type LedgerWriter = Pick<
  LedgerService,
  "transact" | "flush" | "ledgerBalance" | "ledgerBalances" | "onRebuilt" | "push" | "register" | "changed"
>;

/**
 * The ledger's read interface for other modules (VIP, proof of reserves): committed
 * balances, accounts and journal sums, never SQL on the ledger's tables.
 */
export type LedgerReader = Pick<
  LedgerService["repo"],
  "userBalanceRows" | "userPostingSums" | "accountsOf" | "accountBalances"
>;

/** The ledger as the other modules see it: `LEDGER_COMMANDS` run in the writer. */
export type LedgerApi = Forwarded<LedgerService, (typeof LEDGER_COMMANDS)[number]>;

declare module "fastify" {
  interface FastifyInstance {
    /** Set by `registerLedger`: paper accounts and the ledger writer (its commands answer Promises). */
    ledger: LedgerApi;
  }
}

/** What the ledger writer is built on (wired by `modules/trading-core.ts`). */
export interface LedgerDeps {
  /** The writer election and command bus; absent: this process is the only writer. */
  writer: Writer | undefined;
}

/**
 * The ledger writer: builds it on the platform's database, fenced by the writer lease,
 * and loads it where the engines run (the elected writer, or this process alone).
 * Register it before the modules whose batch writers it commits: they load their own
 * state after it. Answers the forwarded service (`.local`: the writer-side `LedgerService`).
 */
export async function registerLedger(
  api: FastifyInstance,
  platform: Platform,
  deps: LedgerDeps,
  options: { now?: () => number } = {},
): Promise<LedgerApi> {
  const { writer } = deps;
  const real = createLedgerWriter({
    db: platform.db,
    fence: writer === undefined ? null : (tx) => writer.fence(tx),
    ...(options.now === undefined ? {} : { now: options.now }),
    onError: (err, msg) => api.log.error({ err }, msg),
  });
  const service: LedgerApi =
    writer === undefined ? direct(real, LEDGER_COMMANDS) : writer.forward(real, "ledger", LEDGER_COMMANDS);
  real.creator = (userId, empty) => service.createAccount(userId, empty);
  if (writer === undefined) await real.start();
  else await writer.role.onStart(() => real.start());
  api.decorate("ledger", service);
  api.addHook("onClose", async () => {
    await real.close();
  });
  return service;
}

/** What runs in the writer: opening accounts, and the reads of its in-memory balances. */
const LEDGER_COMMANDS = [
  "createAccount",
  "ledgerBalance",
  "ledgerBalances",
] as const satisfies readonly (keyof LedgerService)[];
