import type { FastifyInstance } from "fastify";
import type { Platform } from "../../platform/platform.ts";
import { direct, type Forwarded } from "../writer/index.ts";
import { MarginRepo } from "./repo.ts";
import { marginHttpRoutes } from "./routes.ts";
import { MarginService } from "./service.ts";

export { MarginRepo } from "./repo.ts";
export { MarginService } from "./service.ts";

export interface MarginModuleOptions {
  now?: () => number;
  /** Default: MARGIN_INTEREST_INTERVAL_MS from the environment, else 1 h. */
  interestIntervalMs?: number;
  /** The test-only price endpoint; default: NODE_ENV is not production, or MARGIN_TEST_PRICES=1. */
  testPrices?: boolean;
  onService?: (service: MarginService) => void;
}

/** The margin service as the other modules see it: `MARGIN_COMMANDS` run in the writer. */
export type MarginApi = Forwarded<MarginService, (typeof MARGIN_COMMANDS)[number]>;

declare module "fastify" {
  interface FastifyInstance {
    /** Set by `marginRoutes`: cross and isolated margin on paper (its commands answer Promises). */
    margin: MarginApi;
  }
}

function envInterval(): number | undefined {
  const v = Number(process.env.MARGIN_INTEREST_INTERVAL_MS);
  return Number.isInteger(v) && v >= 1_000 ? v : undefined;
}

/**
 * Margin trading (`src/modules/index.ts`, after the paper and futures modules, whose
 * writer, ledger, books and futures wallet it uses): `/v1/paper/margin/*`,
 * `/v1/paper/asset/transfer`, pushes on `/v1/ws/user`.
 */
export function marginModule(options: MarginModuleOptions = {}) {
  return async function marginRoutes(api: FastifyInstance, platform: Platform): Promise<void> {
    const interestIntervalMs = options.interestIntervalMs ?? envInterval();
    const writer = api.hasDecorator("writer") ? api.writer : undefined;
    const real = new MarginService({
      ledger: api.paper.local,
      spot: api.paper.local,
      repo: new MarginRepo(platform.db),
      futures: api.hasDecorator("futures") ? api.futures.local : undefined,
      ...(options.now === undefined ? {} : { now: options.now }),
      ...(interestIntervalMs === undefined ? {} : { interestIntervalMs }),
      onError: (err, msg) => api.log.error({ err }, msg),
    });
    const service: MarginApi =
      writer === undefined
        ? direct(real, MARGIN_COMMANDS)
        : writer.forward(real, "margin", MARGIN_COMMANDS, (m, args) => m === "place" && hasClientId(args[2]));
    if (writer === undefined) await real.start();
    else await writer.role.onStart(() => real.start());
    options.onService?.(real);
    api.decorate("margin", service);
    const testPrices =
      options.testPrices ?? (process.env.NODE_ENV !== "production" || process.env.MARGIN_TEST_PRICES === "1");
    marginHttpRoutes(api, service, testPrices);
    api.addHook("onClose", async () => {
      await real.close();
    });
  };
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

export const marginRoutes = marginModule();
