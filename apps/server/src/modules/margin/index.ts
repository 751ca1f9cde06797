import type { FastifyInstance } from "fastify";
import type { Platform } from "../../platform/platform.ts";
import type { FuturesService } from "../futures/index.ts";
import type { LedgerWriter } from "../ledger/index.ts";
import type { SpotForMargin } from "../paper/index.ts";
import { carriesClientId, direct, type Forwarded, type Writer } from "../writer/index.ts";
import { MarginRepo } from "./repo.ts";
import { marginHttpRoutes } from "./routes.ts";
import { MarginService } from "./service.ts";

export { type MarginDebt, marginDebts } from "./debts.ts";
export { MarginRepo } from "./repo.ts";
export { MarginService } from "./service.ts";

export interface MarginModuleOptions {
  now?: () => number;
  /** Default: MARGIN_INTEREST_INTERVAL_MS from the environment, else 1 h. */
  interestIntervalMs?: number;
  /** The test-only price endpoint; default: NODE_ENV is not production, or MARGIN_TEST_PRICES=1. */
  testPrices?: boolean;
}

/** The margin service as the other modules see it: `MARGIN_COMMANDS` run in the writer. */
export type MarginApi = Forwarded<MarginService, (typeof MARGIN_COMMANDS)[number]>;

declare module "fastify" {
  interface FastifyInstance {
    /** Set by `registerMargin`: cross and isolated margin on paper (its commands answer Promises). */
    margin: MarginApi;
  }
}

function envInterval(): number | undefined {
  const v = Number(process.env.MARGIN_INTEREST_INTERVAL_MS);
  return Number.isInteger(v) && v >= 1_000 ? v : undefined;
}

/** What margin is built on (wired by `modules/trading-core.ts`). */
export interface MarginDeps {
  writer: Writer | undefined;
  ledger: LedgerWriter;
  /** The spot books and engine its orders trade in. */
  spot: SpotForMargin;
  /** For FUTURES transfers; absent: refused. */
  futures: FuturesService | undefined;
}

/**
 * Cross and isolated margin: `/v1/paper/margin/*`, `/v1/paper/asset/transfer`, pushes
 * on `/v1/ws/user`. Answers the forwarded service.
 */
export async function registerMargin(
  api: FastifyInstance,
  platform: Platform,
  deps: MarginDeps,
  options: MarginModuleOptions = {},
): Promise<MarginApi> {
  const { writer, ledger, spot, futures } = deps;
  const interestIntervalMs = options.interestIntervalMs ?? envInterval();
  const real = new MarginService({
    ledger,
    spot,
    repo: new MarginRepo(platform.db),
    futures,
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(interestIntervalMs === undefined ? {} : { interestIntervalMs }),
    onError: (err, msg) => api.log.error({ err }, msg),
  });
  const service: MarginApi =
    writer === undefined
      ? direct(real, MARGIN_COMMANDS)
      : writer.forward(
          real,
          "margin",
          MARGIN_COMMANDS,
          (m, args) =>
            (m === "place" && hasClientId(args[2])) ||
            (m === "transfer" && carriesClientId(args[1], "clientTransferId")),
        );
  if (writer === undefined) await real.start();
  else await writer.role.onStart(() => real.start());
  api.decorate("margin", service);
  const testPrices =
    options.testPrices ?? (process.env.NODE_ENV !== "production" || process.env.MARGIN_TEST_PRICES === "1");
  marginHttpRoutes(api, service, testPrices);
  api.addHook("onClose", async () => {
    await real.close();
  });
  return service;
}

/**
 * What runs in the writer: every command, and the views computed from its ledger and
 * loans. Orders, trades and records are read here from the database.
 */
const MARGIN_COMMANDS = [
  "pinPrice",
  "view",
  "isolatedAccounts",
  "maxBorrowable",
  "maxTransferable",
  "borrow",
  "repay",
  "transfer",
  "place",
  "cancel",
  "accrueDue",
  "riskPass",
  "debts",
  "futuresWallet",
] as const satisfies readonly (keyof MarginService)[];

function hasClientId(body: unknown): boolean {
  return (
    typeof body === "object" &&
    body !== null &&
    typeof (body as { clientOrderId?: unknown }).clientOrderId === "string"
  );
}
