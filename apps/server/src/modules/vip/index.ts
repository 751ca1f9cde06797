import { SignMode, VipPath } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { route } from "../../platform/http/route.ts";
import type { Platform } from "../../platform/platform.ts";
import { type AccountsService, authOf, routeGuards } from "../accounts/index.ts";
import type { LedgerReader } from "../ledger/index.ts";
import type { PaperVenue } from "../paper/index.ts";
import { type MarginDebts, msToNextUtcMidnight, type TradeVolumes, VipService } from "./service.ts";

export {
  type MarginDebts,
  msToNextUtcMidnight,
  type TradeVolumes,
  VIP_WINDOW_MS,
  VipService,
} from "./service.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Set by `vipRoutes`: the VIP job and detail. */
    vip: VipService;
  }
}

/** `VIP_JOB_INTERVAL_MS` (at least 10 s) runs the job that often instead of daily at 00:00 UTC (demos). */
function envInterval(): number | undefined {
  const v = Number(process.env.VIP_JOB_INTERVAL_MS);
  return Number.isInteger(v) && v >= 10_000 ? v : undefined;
}

/** What VIP levels are measured from (wired by `modules/trading-core.ts`). */
export interface VipModuleDeps {
  accounts: AccountsService;
  /** Balances, accounts and minted sums. */
  ledger: LedgerReader;
  /** Prices and pairs. */
  venue: PaperVenue;
  /** The 30-day fills of spot, margin and futures (their modules' reads). */
  volumes: TradeVolumes;
  /** The margin debts subtracted from a balance (margin's read). */
  debts: MarginDebts;
}

/**
 * VIP levels: `GET /v1/vip/detail` for the logged-in user, `POST /v1/admin/vip/recompute`
 * for administrators, and the job daily at 00:00 UTC. Answers the service, whose levels
 * make the fee schedule of spot and futures (`vipFeeSchedule`).
 */
export function registerVip(api: FastifyInstance, platform: Platform, deps: VipModuleDeps): VipService {
  const service = new VipService({ db: platform.db, ...deps });
  api.decorate("vip", service);
  const { user, admin } = routeGuards(api);
  route(api, {
    method: "GET",
    url: VipPath.DETAIL,
    auth: user,
    handler: ({ request }) => service.detail(authOf(request).user),
  });
  route(api, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: VipPath.RECOMPUTE,
    auth: admin,
    rateLimit: { limit: 6, windowMs: 60_000 },
    handler: () => service.recompute(),
  });

  let timer: NodeJS.Timeout | undefined;
  const interval = envInterval();
  const run = () => {
    service.recompute().catch((err: unknown) => api.log.error({ err }, "VIP job failed"));
    timer = setTimeout(run, interval ?? msToNextUtcMidnight(Date.now()));
    timer.unref();
  };
  api.addHook("onReady", async () => {
    await service.loadLevels();
    timer = setTimeout(run, interval ?? msToNextUtcMidnight(Date.now()));
    timer.unref();
  });
  api.addHook("onClose", async () => {
    if (timer !== undefined) clearTimeout(timer);
  });
  return service;
}
