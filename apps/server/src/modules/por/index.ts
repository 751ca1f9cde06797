import type { FastifyInstance } from "fastify";
import type { Platform } from "../../platform/platform.ts";
import type { LedgerApi, LedgerWriter } from "../ledger/index.ts";
import { PorRepo } from "./repo.ts";
import { porHttpRoutes } from "./routes.ts";
import { PorService } from "./service.ts";

export { PorService } from "./service.ts";

/**
 * Proof of reserves over the ledger writer's balances (wired by `modules/trading-core.ts`):
 * `/v1/por/*`, a snapshot at start when the last is older than the interval, then on
 * every boundary of it (POR_SNAPSHOT_INTERVAL_MS in the environment, default 10 minutes).
 */
export async function registerPor(
  api: FastifyInstance,
  platform: Platform,
  deps: {
    ledger: Pick<LedgerWriter, "transact">;
    /** The caller's paper account (the proof is of its leaf): the ledger's, opened if new. */
    accounts: Pick<LedgerApi, "accountFor">;
  },
): Promise<PorService> {
  const service = new PorService({
    ledger: deps.ledger,
    repo: new PorRepo(platform.db),
    intervalMs: intervalFromEnv(),
    onError: (err, msg) => api.log.error({ err }, msg),
  });
  await service.start();
  porHttpRoutes(api, service, deps.accounts);
  api.addHook("onClose", async () => service.close());
  return service;
}

function intervalFromEnv(): number | undefined {
  const v = Number(process.env.POR_SNAPSHOT_INTERVAL_MS);
  return Number.isInteger(v) && v >= 1000 ? v : undefined;
}
