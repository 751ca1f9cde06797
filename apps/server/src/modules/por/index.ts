import type { FastifyInstance } from "fastify";
import type { Platform } from "../../platform/platform.ts";
import { PorRepo } from "./repo.ts";
import { porHttpRoutes } from "./routes.ts";
import { PorService } from "./service.ts";

export { PorService } from "./service.ts";

/**
 * Proof of reserves (`src/modules/index.ts`, after the ledger writer whose balances it reads):
 * `/v1/por/*`, a snapshot at start when the last is a day old, then daily at 00:00 UTC.
 */
export async function porRoutes(api: FastifyInstance, platform: Platform): Promise<void> {
  const service = new PorService({
    ledger: api.ledger.local,
    repo: new PorRepo(platform.db),
    onError: (err, msg) => api.log.error({ err }, msg),
  });
  await service.start();
  porHttpRoutes(api, service);
  api.addHook("onClose", async () => service.close());
}
