import type { FastifyInstance } from "fastify";
import type { Platform } from "../../platform/platform.ts";
import type { AccountsService } from "../accounts/index.ts";
import type { FuturesService } from "../futures/index.ts";
import type { LedgerService } from "../ledger/index.ts";
import type { MarginService } from "../margin/index.ts";
import type { PaperService } from "../paper/index.ts";
import { carriesClientId, direct, type Forwarded, type Writer } from "../writer/index.ts";
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

/** What sub-accounts are built on (wired by `modules/trading-core.ts`): the writer-side services. */
export interface SubAccountsDeps {
  writer: Writer | undefined;
  accounts: AccountsService;
  ledger: LedgerService;
  paper: PaperService;
  futures: FuturesService;
  margin: MarginService;
}

/**
 * Sub-accounts (a transfer runs through the ledger writer and the engines):
 * `/v1/user/sub/*`. Answers the forwarded service.
 */
export function registerSubAccounts(
  api: FastifyInstance,
  platform: Platform,
  deps: SubAccountsDeps,
): SubAccountsApi {
  const { writer, ...services } = deps;
  // Its commands run in the writer, on the engines themselves.
  const real = new SubAccountsService({ db: platform.db, ...services });
  const service: SubAccountsApi =
    writer === undefined
      ? direct(real, SUB_COMMANDS)
      : writer.forward(
          real,
          "subaccounts",
          SUB_COMMANDS,
          (m, args) => m === "transfer" && carriesClientId(args[1], "clientTransferId"),
        );
  api.decorate("subAccounts", service);
  subAccountRoutes(api, service, deps.accounts);
  return service;
}
