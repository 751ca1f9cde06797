import type { FastifyInstance } from "fastify";
import type { Platform } from "../../platform/platform.ts";
import { PorRepo } from "./repo.ts";
import { porHttpRoutes } from "./routes.ts";
import { PorService } from "./service.ts";

export { PorService } from "./service.ts";

/**
 * Proof of reserves (`src/modules/index.ts`, after the paper module whose ledger it reads):
 * `/v1/por/*`, a snapshot at start when the last is older than the interval, then on
 * every boundary of it (POR_SNAPSHOT_INTERVAL_MS in the environment, default 10 minutes).
 */
export async function porRoutes(api: FastifyInstance, platform: Platform): Promise<void> {
  const service = new PorService({
    paper: api.paper.local,
    repo: new PorRepo(platform.db),
    intervalMs: intervalFromEnv(),
    onError: (err, msg) => api.log.error({ err }, msg),
  });
  await service.start();
  porHttpRoutes(api, service);
  api.addHook("onClose", async () => service.close());
}

function intervalFromEnv(): number | undefined {
  const v = Number(process.env.POR_SNAPSHOT_INTERVAL_MS);
  return Number.isInteger(v) && v >= 1000 ? v : undefined;
}
