import type { FastifyInstance } from "fastify";
import type { Platform } from "../../platform/platform.ts";
import { subAccountRoutes } from "./routes.ts";
import { SubAccountsService } from "./service.ts";

export { type UsdtPrices, usdtPrices, usdtValue } from "./prices.ts";
export { SubAccountsService } from "./service.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Set by `subAccountsRoutes`: sub-accounts of a master. */
    subAccounts: SubAccountsService;
  }
}

/**
 * Sub-accounts (`src/modules/index.ts`, after paper, futures and margin: a transfer runs
 * through their writer and engines): `/v1/user/sub/*`.
 */
export function subAccountsRoutes(api: FastifyInstance, platform: Platform): void {
  const real = new SubAccountsService({
    db: platform.db,
    accounts: api.accounts.service,
    paper: api.paper,
    futures: api.hasDecorator("futures") ? api.futures : undefined,
    margin: api.hasDecorator("margin") ? api.margin : undefined,
  });
  // Transfers and the wallet views read the writer's ledger: they run in the writer.
  const service = api.hasDecorator("writer")
    ? api.writer.forward(real, "subaccounts", ["create", "list", "freeze", "setLabel", "transfer"])
    : real;
  api.decorate("subAccounts", service);
  subAccountRoutes(api, service);
}
