import type { FastifyInstance } from "fastify";
import type { Platform } from "../../platform/platform.ts";
import { keyRoutes } from "./key-routes.ts";
import { ApiKeyStore, loadKeyStoreConfig } from "./keys.ts";
import { registerMix } from "./mix.ts";
import { registerPublic } from "./public.ts";
import { registerSpot } from "./spot.ts";
import { registerV2Scope } from "./v2-scope.ts";
import { registerBitgetWs } from "./ws.ts";

export { ApiKeyStore } from "./keys.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Set by `botApiRoutes`: the API key store (the security pages list keys with `listByUser`). */
    apiKeys: ApiKeyStore;
  }
}

export interface BotApiModuleOptions {
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  /** Multiplies every `/api/v2` rate limit (default BOT_API_RATE_SCALE, else 1). */
  rateScale?: number;
  onStore?: (store: ApiKeyStore) => void;
}

const VIP_CACHE_MS = 30_000;

/**
 * API keys (`/v1/user/api-keys*`) and the Bitget-v2-compatible paper API (`/api/v2/*`,
 * docs/bot-api.md). Listed after the paper, futures and margin modules: bots trade
 * through their services, so their orders show on the web pages and the other way round.
 */
export function botApiModule(options: BotApiModuleOptions = {}) {
  return async function botApiRoutes(api: FastifyInstance, platform: Platform): Promise<void> {
    const env = options.env ?? process.env;
    const now = options.now ?? Date.now;
    const store = new ApiKeyStore(platform.db, loadKeyStoreConfig(env), now);
    options.onStore?.(store);
    api.decorate("apiKeys", store);
    keyRoutes(api, store);

    const paper = api.paper;
    const futures = api.hasDecorator("futures") ? api.futures : undefined;
    const accounts = api.accounts.service;
    const vip = new Map<string, { level: number; until: number }>();
    const envScale = Number(env.BOT_API_RATE_SCALE);
    const accountOf = async (owner: { id: string }) => ({ accountId: (await paper.accountFor(owner.id)).id });
    if (api.hasDecorator("market"))
      registerBitgetWs(api, {
        market: api.market,
        paper,
        futures,
        keys: store,
        now,
        account: accountOf,
        ...(api.hasDecorator("writer") && api.writer.fansOut ? { writerStreams: api.writer } : {}),
      });
    await registerV2Scope(
      api,
      {
        keys: store,
        rateLimiter: platform.rateLimiter,
        rateScale: options.rateScale ?? (Number.isFinite(envScale) && envScale > 0 ? envScale : 1),
        now,
        account: async (owner) => {
          const { id } = await paper.accountFor(owner.id);
          const t = now();
          let hit = vip.get(owner.id);
          if (hit === undefined || hit.until <= t) {
            hit = {
              level: (await accounts.repo.userById(owner.id))?.vip_level ?? 0,
              until: t + VIP_CACHE_MS,
            };
            vip.set(owner.id, hit);
          }
          return { accountId: id, vipLevel: hit.level };
        },
      },
      (router) => {
        if (api.hasDecorator("market"))
          registerPublic(router, { market: api.market, marks: () => futures?.marksList() ?? [], now });
        const decimals = (symbol: string) => paper.venue.spec(symbol)?.priceDecimals ?? 8;
        registerSpot(router, { paper, futures, priceDecimals: decimals });
        if (futures !== undefined)
          registerMix(
            router,
            futures,
            (symbol) => futures.marksList().find((m) => m.symbol === symbol)?.markPrice,
          );
      },
    );
  };
}

export const botApiRoutes = botApiModule();
