import type { FastifyInstance } from "fastify";
import type { Platform } from "../../platform/platform.ts";
import type { AccountsService, ApiKeyDirectory } from "../accounts/index.ts";
import type { FuturesApi } from "../futures/index.ts";
import { MemoryReplayStore, RedisReplayStore } from "../gateway-sign/index.ts";
import type { LedgerApi } from "../ledger/index.ts";
import type { MarginApi } from "../margin/index.ts";
import type { MarketService } from "../market/index.ts";
import type { PaperApi } from "../paper/index.ts";
import type { Writer } from "../writer/index.ts";
import { BitgetCode, BitgetError } from "./bitget.ts";
import { keyRoutes } from "./key-routes.ts";
import { ApiKeyStore, loadKeyStoreConfig } from "./keys.ts";
import { registerMargin } from "./margin.ts";
import { registerMix } from "./mix.ts";
import { registerPaperOnly } from "./paper-only.ts";
import { registerPublic } from "./public.ts";
import { registerSpot } from "./spot.ts";
import { registerTradeRate } from "./trade-rate.ts";
import { registerV2Scope } from "./v2-scope.ts";
import { registerBitgetWs } from "./ws.ts";

export { ApiKeyStore } from "./keys.ts";

/** The store's keys as the account security page lists them (the composition root hands it to accounts). */
export function apiKeyDirectory(store: ApiKeyStore): ApiKeyDirectory {
  return {
    keysOf: async (userId) =>
      (await store.listByUser(userId)).map((k) => ({
        apiKey: k.apiKey,
        label: k.label,
        permissions: k.permissions,
        userId: k.owner.id,
        subAccount: k.owner.type === "sub",
        createdAt: k.createdAt,
      })),
  };
}

export interface BotApiModuleOptions {
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  /** Multiplies every `/api/v2` rate limit (default BOT_API_RATE_SCALE, else 1). */
  rateScale?: number;
  onStore?: (store: ApiKeyStore) => void;
}

/** The services bots trade through (wired by `modules/trading-core.ts`). */
export interface BotApiDeps {
  accounts: AccountsService;
  ledger: LedgerApi;
  paper: PaperApi;
  futures: FuturesApi | undefined;
  margin: MarginApi | undefined;
  /** Tickers, books and candles; absent: no public market routes or WebSocket. */
  market: MarketService | undefined;
  writer: Writer | undefined;
}

/** How long an owner's VIP level and frozen flag are reused: a change reaches the API within this. */
const OWNER_CACHE_MS = 5_000;

/**
 * API keys (`/v1/user/api-keys*`) and the Bitget-v2-compatible paper API (`/api/v2/*`,
 * docs/bot-api.md). Bots trade through the services of `deps`, so their orders show on
 * the web pages and the other way round.
 */
export function botApiModule(deps: BotApiDeps, options: BotApiModuleOptions = {}) {
  return async function botApiRoutes(api: FastifyInstance, platform: Platform): Promise<void> {
    const env = options.env ?? platform.env;
    const now = options.now ?? Date.now;
    // A master manages its subs' keys too: their ids are the accounts module's to read.
    const subsOf = async (userId: string) => (await deps.accounts.repo.subUsers(userId)).map((u) => u.id);
    const store = new ApiKeyStore(platform.db, loadKeyStoreConfig(env), subsOf, now);
    options.onStore?.(store);
    const { accounts, ledger, paper, futures, margin, market, writer } = deps;
    keyRoutes(api, store, accounts);
    const owners = new Map<string, { level: number; frozen: boolean; sub: boolean; until: number }>();
    const envScale = Number(env.BOT_API_RATE_SCALE);
    /** The paper account a key trades, refused while its owner (a sub, say) is frozen or gone. */
    const tradingAccount = async (owner: { id: string }) => {
      const t = now();
      let hit = owners.get(owner.id);
      if (hit === undefined || hit.until <= t) {
        const user = await accounts.repo.userById(owner.id);
        hit = {
          level: user?.vip_level ?? 0,
          frozen: user === undefined || user.frozen !== 0,
          sub: user?.parent_id !== null,
          until: t + OWNER_CACHE_MS,
        };
        if (owners.size > 10_000) owners.clear();
        owners.set(owner.id, hit);
      }
      if (hit.frozen) throw new BitgetError(BitgetCode.PERMISSION, "The account of this API key is frozen");
      // A sub's account opens empty (its master funds it), as the sub-accounts module opens it.
      return { accountId: (await ledger.accountFor(owner.id, hit.sub)).id, vipLevel: hit.level };
    };
    if (market !== undefined)
      registerBitgetWs(api, {
        market,
        paper,
        ledger,
        futures,
        margin,
        keys: store,
        now,
        account: tradingAccount,
        ...(writer?.fansOut === true ? { writerStreams: writer } : {}),
      });
    await registerV2Scope(
      api,
      {
        keys: store,
        rateLimiter: platform.rateLimiter,
        replays:
          platform.redis === undefined
            ? new MemoryReplayStore(now)
            : new RedisReplayStore(platform.redis, "botapi:replay:"),
        rateScale: options.rateScale ?? (Number.isFinite(envScale) && envScale > 0 ? envScale : 1),
        now,
        account: tradingAccount,
      },
      (router) => {
        if (market !== undefined)
          registerPublic(router, {
            market,
            marks: () => futures?.marksList() ?? [],
            marginPairs: () => margin?.pairs().pairs ?? [],
            ...(futures === undefined
              ? {}
              : {
                  openInterest: (symbol: string) => futures.openInterest(symbol),
                  fundingRates: (symbol: string, limit: number, offset: number) =>
                    futures.fundingRates(symbol, limit, offset),
                  markCandles: (...args: Parameters<FuturesApi["markCandles"]>) =>
                    futures.markCandles(...args),
                }),
            now,
          });
        const decimals = (symbol: string) => paper.venue.spec(symbol)?.priceDecimals ?? 8;
        registerSpot(router, {
          paper,
          futures,
          margin,
          priceDecimals: decimals,
          lotSize: (symbol) => paper.venue.spec(symbol)?.lotSize,
          assets: (symbol) => {
            const spec = paper.venue.spec(symbol);
            return spec === undefined ? undefined : { base: spec.base, quote: spec.quote };
          },
        });
        registerPaperOnly(router);
        registerTradeRate(router, (symbol) => paper.venue.spec(symbol) !== undefined);
        if (margin !== undefined) registerMargin(router, margin, decimals);
        if (futures !== undefined)
          registerMix(
            router,
            futures,
            (symbol) => futures.marksList().find((m) => m.symbol === symbol)?.markPrice,
            {
              wallet: (accountId, coin) => futures.account(accountId, coin),
              coinWallets: (accountId) => futures.wallets(accountId, "coin"),
            },
          );
      },
    );
  };
}
