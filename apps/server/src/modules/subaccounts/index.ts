import type { FastifyInstance } from "fastify";
import type { Platform } from "../../platform/platform.ts";
import { carriesClientId, direct, type Forwarded } from "../writer/index.ts";
import { subAccountRoutes } from "./routes.ts";
import { SubAccountsService } from "./service.ts";

export { type UsdtPrices, usdtPrices, usdtValue } from "./prices.ts";
export { SubAccountsService } from "./service.ts";

/** What runs in the writer: transfers and the wallet views read the writer's ledger. */
const SUB_COMMANDS = ["create", "list", "freeze", "setLabel", "transfer"] as const;

/** The sub-accounts service as the other modules see it: `SUB_COMMANDS` run in the writer. */
export type SubAccountsApi = Forwarded<SubAccountsService, (typeof SUB_COMMANDS)[number]>;

declare module "fastify" {
  interface FastifyInstance {
    /** Set by `subAccountsRoutes`: sub-accounts of a master. */
    subAccounts: SubAccountsApi;
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
    // Its commands run in the writer, on the engines themselves.
    ledger: api.ledger.local,
    paper: api.paper.local,
    futures: api.hasDecorator("futures") ? api.futures.local : undefined,
    margin: api.hasDecorator("margin") ? api.margin.local : undefined,
  });
  const service: SubAccountsApi = api.hasDecorator("writer")
    ? api.writer.forward(
        real,
        "subaccounts",
        SUB_COMMANDS,
        (m, args) => m === "transfer" && carriesClientId(args[1], "clientTransferId"),
      )
    : direct(real, SUB_COMMANDS);
  api.decorate("subAccounts", service);
  subAccountRoutes(api, service);
}
