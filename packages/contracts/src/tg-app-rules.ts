/**
 * The zod-free part of the Apps and Bot Center contract (docs/product.md §2 "Messaging-platform
 * apps and bots centre"): API paths, categories, tabs, ranking and rate limits, codes.
 * Browser code imports this module (`@meridian/contracts/tg-app-rules`) so page bundles
 * never carry zod, whose JIT probe trips the CSP (no eval); the schemas live in tg-apps.ts,
 * which re-exports everything here.
 */

export const TG_APPS_API = {
  list: "/v1/content/tg-apps",
  detail: "/v1/content/tg-apps/:slug",
  articles: "/v1/content/tg-apps/:slug/articles",
  rating: "/v1/content/tg-apps/:slug/rating",
  submissions: "/v1/content/tg-apps/submissions",
  icon: "/v1/content/tg-apps/:slug/icon.svg",
  screenshot: "/v1/content/tg-apps/:slug/screens/:n",
  sitemap: "/v1/content/tg-apps/sitemap",
  adminApps: "/v1/admin/tg-apps/apps",
  adminApp: "/v1/admin/tg-apps/apps/:slug",
  adminArticles: "/v1/admin/tg-apps/articles",
  adminArticle: "/v1/admin/tg-apps/articles/:slug",
  adminSubmissions: "/v1/admin/tg-apps/submissions",
  adminSubmission: "/v1/admin/tg-apps/submissions/:id",
} as const;

/** Fills `:name` segments of a TG_APPS_API path. */
export function tgAppsPath(template: string, params: Record<string, string | number>): string {
  return template.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name] ?? "")));
}

/**
 * The seven classifications, numbered 1 to 7 as docs/product.md §3 numbers them. `key` is the
 * list tab and the i18n key; the seventh (Social) is ours: chats, communities, dating.
 */
export const TG_APP_CATEGORIES = [
  { id: 1, key: "open-league" },
  { id: 2, key: "games" },
  { id: 3, key: "web3" },
  { id: 4, key: "management" },
  { id: 5, key: "utilities" },
  { id: 6, key: "play-to-earn" },
  { id: 7, key: "social" },
] as const;
export type TgAppCategoryId = (typeof TG_APP_CATEGORIES)[number]["id"];
export type TgAppCategoryKey = (typeof TG_APP_CATEGORIES)[number]["key"];
export const TG_APP_CATEGORY_IDS = TG_APP_CATEGORIES.map((c) => c.id) as readonly TgAppCategoryId[];

export function tgCategoryKey(id: number): TgAppCategoryKey | undefined {
  return TG_APP_CATEGORIES.find((c) => c.id === id)?.key;
}

/** List tabs in display order (docs/product.md §2). Social has no tab of its own: it shows under All. */
export const TG_APP_TABS = [
  "all",
  "open-league",
  "weekly-trending",
  "games",
  "web3",
  "management",
  "utilities",
  "play-to-earn",
  "hot",
  "new",
] as const;
export type TgAppTab = (typeof TG_APP_TABS)[number];

export const TG_APP_PLATFORMS = ["ios", "android", "desktop", "web"] as const;
export type TgAppPlatform = (typeof TG_APP_PLATFORMS)[number];

export const TG_APP_TAGS = ["editors-choice", "hot", "new"] as const;
export type TgAppTag = (typeof TG_APP_TAGS)[number];

/**
 * How "hot", "new" and "weekly trending" are derived (the list page explains it in
 * words; the numbers live here so page and server cannot disagree):
 *
 * - trending score = visits in the last 7 days + TRENDING_RATING_WEIGHT x ratings
 *   given (or changed) in the last 7 days. The Weekly trending tab lists apps with a
 *   score above 0, highest first (ties: more raters, then name).
 * - hot score = visits in the last 30 days + HOT_RATER_WEIGHT x all-time raters. The
 *   HOT_COUNT apps with the highest score above 0 carry the Hot tag and fill the Hot tab.
 * - new: the NEW_COUNT most recently listed apps carry the New tag and fill the New tab.
 *
 * Visits are the tracker's page views of the detail page (`/telegram-apps/<slug>`,
 * tracking id b9331) per UTC day; while the tracking store has none, the module's own
 * per-app visit counter stands in (apps/server/src/modules/tg-apps/visits.ts).
 */
export const TG_APP_RANKING = {
  TRENDING_DAYS: 7,
  TRENDING_RATING_WEIGHT: 25,
  HOT_DAYS: 30,
  HOT_RATER_WEIGHT: 10,
  HOT_COUNT: 12,
  NEW_COUNT: 12,
} as const;

/**
 * Rating frequency limit: at most `limit` ratings per user per `windowMs`, across all
 * apps (fixed window, shared through Redis when the server has it).
 */
export const TG_RATING_LIMIT = { limit: 3, windowMs: 60_000 } as const;

/** Submissions per client IP (fixed window). */
export const TG_SUBMISSION_LIMIT = { limit: 5, windowMs: 10 * 60_000 } as const;

export const TG_APPS_PAGE_SIZE = 24;

/** Codes of this section; the 16xxx range is the Apps and Bot Center's. */
export const TgAppCode = {
  /** Rated more often than TG_RATING_LIMIT allows: the page says "Exceeds the frequency". */
  RATING_TOO_FREQUENT: "16001",
} as const;
