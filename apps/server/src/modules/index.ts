import type { Seed } from "../platform/db/seed.ts";
import type { ModuleRoutes } from "../platform/platform.ts";
import type { SharedSecretStore } from "../platform/shared-secrets.ts";
import type { StoredHtml } from "../platform/stored-html.ts";
import { accountsSeed, accountsSharedEnv, securityRoutes } from "./accounts/index.ts";
import {
  AIRDROPS_STORED_HTML,
  airdropArtworkSubjects,
  airdropsModule,
  airdropTokenListings,
} from "./airdrops/index.ts";
import { contentRoutes, contentSeed, contentTexts, searchIndexSeed } from "./content/index.ts";
import { loadSignSettings } from "./gateway-sign/index.ts";
import { loadMarketConfig } from "./market/index.ts";
import { mediaConfigFromEnv, mediaModule, mediaSeed } from "./media/index.ts";
import { pageMetaSeed, seoRoutes } from "./seo/index.ts";
import { systemRoutes } from "./system/index.ts";
import { appArtworkSubjects, TG_APPS_STORED_HTML, tgAppsModule } from "./tg-apps/index.ts";
import { loadTrackingConfig, type TrackingQueries, trackingModule } from "./tracking/index.ts";
import { type TradingCore, type TradingCoreOptions, tradingCore } from "./trading-core.ts";

export { type TradingCore, type TradingCoreOptions, tradingCore } from "./trading-core.ts";

/**
 * Every module's `/v1` routes, registered in this order by `buildApp`, with the trading
 * core's `core` options (tests: their overrides). To add a module, add one line: its
 * `(app, platform) => void` registration. A module that needs another module's service
 * is built in the composition root (`trading-core.ts`), which passes each its
 * dependencies as arguments.
 */
export function siteModules(core: TradingCoreOptions = {}): readonly ModuleRoutes[] {
  // Services one module builds and another reads, filled in as each registers (the apps'
  // rankings are registered before the tracking store opens, so readers get getters).
  let trading: TradingCore | undefined;
  let tracking: TrackingQueries | undefined;
  return [
    // NOTE: securityRoutes stays first: its gateway hooks (signing, login decryption, request-time) cover the modules after it.
    securityRoutes,
    systemRoutes,
    // The writer, the market (tokens of airdrops that have listed trade as USDT spot
    // pairs beside the built-in ones), the ledger writer, spot, futures, margin,
    // sub-accounts, VIP, proof of reserves and the bot API, wired in one place.
    tradingCore({
      market: { listingSource: airdropTokenListings },
      ...core,
      onBuilt: (built) => {
        trading = built;
        core.onBuilt?.(built);
      },
    }),
    // NOTE: media before airdrops and apps: their answers carry its images.
    mediaModule,
    // The library keeps its translations and home FAQ in the content module's texts.
    airdropsModule({ texts: contentTexts, market: () => trading?.market }),
    contentRoutes,
    seoRoutes,
    // The apps' pages know a logged-in visitor through the accounts service (registered first).
    (api, platform) =>
      tgAppsModule({ tracking: () => tracking, accounts: api.accounts.service })(api, platform),
    // The tracker tags a logged-in visitor through the accounts module (registered first).
    (api, platform) =>
      trackingModule({
        sessionUser: api.accounts.sessionUserOf,
        onQueries: (queries) => {
          tracking = queries;
        },
      })(api, platform),
  ];
}

/** The site's modules (production: no overrides). */
export const moduleRoutes: readonly ModuleRoutes[] = siteModules();

/** Demo data, run after migrations on start (see platform/db/seed.ts). One line per module. */
// NOTE: media after the content: it draws artwork for the airdrops and apps seeded there.
export const moduleSeeds: readonly Seed[] = [
  accountsSeed,
  contentSeed,
  pageMetaSeed,
  searchIndexSeed,
  mediaSeed({ airdrops: airdropArtworkSubjects, apps: appArtworkSubjects }),
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
