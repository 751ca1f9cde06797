import type { Seed } from "../platform/db/seed.ts";
import type { ModuleRoutes } from "../platform/platform.ts";
import type { SharedSecretStore } from "../platform/shared-secrets.ts";
import type { StoredHtml } from "../platform/stored-html.ts";
import { accountsSeed, accountsSharedEnv, securityRoutes } from "./accounts/index.ts";
import { AIRDROPS_STORED_HTML, airdropsRoutes, airdropTokenListings } from "./airdrops/index.ts";
import { botApiRoutes } from "./bot-api/index.ts";
import { contentRoutes, contentSeed, searchIndexSeed } from "./content/index.ts";
import { loadSignSettings } from "./gateway-sign/index.ts";
import { loadMarketConfig, marketModule } from "./market/index.ts";
import { mediaConfigFromEnv, mediaModule, mediaSeed } from "./media/index.ts";
import { porRoutes } from "./por/index.ts";
import { pageMetaSeed, seoRoutes } from "./seo/index.ts";
import { subAccountsRoutes } from "./subaccounts/index.ts";
import { systemRoutes } from "./system/index.ts";
import { TG_APPS_STORED_HTML, tgAppsModule } from "./tg-apps/index.ts";
import { loadTrackingConfig, trackingRoutesModule } from "./tracking/index.ts";
import { tradingCoreRoutes } from "./trading-core.ts";
import { vipRoutes } from "./vip/index.ts";
import { writerRoutes } from "./writer/index.ts";

/**
 * Every module's `/v1` routes, registered in this order by `buildApp`. To add a module,
 * add one line: its `(app, platform) => void` registration (wire its dependencies from
 * `platform` here when its register function takes its own deps object).
 */
// NOTE: securityRoutes stays first: its gateway hooks (signing, login decryption, request-time) cover the modules after it.
export const moduleRoutes: readonly ModuleRoutes[] = [
  securityRoutes,
  systemRoutes,
  // NOTE: the writer before market and the trading modules: it elects the instance that
  // runs the price feed and the engines, and forwards the others' commands to it.
  writerRoutes,
  // NOTE: market before the modules that read `api.market` (airdrops prices, orders).
  // Tokens of airdrops that have listed trade as USDT spot pairs beside the built-in ones.
  marketModule({ listingSource: airdropTokenListings }),
  // Spot with the ledger writer, futures and margin, wired in one place (trading-core.ts).
  tradingCoreRoutes,
  // NOTE: sub-accounts and VIP after margin (their transfers and figures use paper, futures, margin).
  subAccountsRoutes,
  vipRoutes,
  // NOTE: after paper and margin: reads the ledger's user and system accounts.
  porRoutes,
  // NOTE: the bot API after paper, futures and margin (it trades through their services).
  botApiRoutes,
  // NOTE: media before airdrops and apps: their answers carry its images.
  mediaModule,
  airdropsRoutes,
  contentRoutes,
  seoRoutes,
  tgAppsModule,
  trackingRoutesModule,
];

/** Demo data, run after migrations on start (see platform/db/seed.ts). One line per module. */
// NOTE: media after the content: it draws artwork for the airdrops and apps seeded there.
export const moduleSeeds: readonly Seed[] = [
  accountsSeed,
  contentSeed,
  pageMetaSeed,
  searchIndexSeed,
  mediaSeed,
];

/** Every table holding stored rich text: cleaned again at start when the sanitiser's version changed. */
export const moduleStoredHtml: readonly StoredHtml[] = [...AIRDROPS_STORED_HTML, ...TG_APPS_STORED_HTML];

/**
 * Environment variables every instance must agree on, filled from the database when the
 * process's environment leaves them unset (platform/shared-secrets.ts); run at start
 * under the start-up lock, before any module registers.
 */
export const moduleSharedEnv: readonly ((
  store: SharedSecretStore,
  env: NodeJS.ProcessEnv,
) => Promise<Record<string, string>>)[] = [accountsSharedEnv];

/**
 * Reads the modules' environment before the server opens anything, so a bad value (an
 * unknown MARKET_FEED, say) stops the start with its one-line ConfigError at once rather
 * than after migrations, halfway through registering routes.
 */
export function checkModuleEnvironment(env: NodeJS.ProcessEnv, dataDir: string): void {
  loadMarketConfig(env);
  loadTrackingConfig(env);
  loadSignSettings(env);
  mediaConfigFromEnv(env, dataDir);
}
