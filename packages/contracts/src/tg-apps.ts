import { z } from "zod";

/**
 * The Apps and Bot Center (SPEC section 2 "Messaging-platform apps and bots centre",
 * section 3 "Messaging-platform app"): API paths, categories, tabs, the rating limit,
 * zod schemas and answer types shared by the server, the pages and the tests.
 *
 * NOTE: instants are epoch milliseconds (UTC). Text fields arrive localised: the server
 * overlays the request locale's translations on English, field by field.
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
 * The seven classifications, numbered 1 to 7 as the SPEC numbers them. `key` is the
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

/** List tabs in display order (SPEC section 2). Social has no tab of its own: it shows under All. */
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

const slug = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "lower-case letters, digits and single hyphens");
const localeParam = z.string().min(2).max(10).default("en");

export const tgSlugParamsSchema = z.object({ slug });

export const tgAppListQuerySchema = z.object({
  tab: z.enum(TG_APP_TABS).default("all"),
  q: z.string().trim().max(80).default(""),
  page: z.coerce.number().int().min(1).max(1000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(TG_APPS_PAGE_SIZE),
  locale: localeParam,
});
export type TgAppListQuery = z.infer<typeof tgAppListQuerySchema>;

export const tgLocaleQuerySchema = z.object({ locale: localeParam });

export const tgRatingBodySchema = z.object({ stars: z.int().min(1).max(5) });
export type TgRatingBody = z.infer<typeof tgRatingBodySchema>;

const botUsername = z
  .string()
  .trim()
  .regex(/^@?[A-Za-z][A-Za-z0-9_]{3,31}$/, "a Telegram username: 4-32 letters, digits or _");
const httpsUrl = z
  .string()
  .trim()
  .max(300)
  .regex(/^https?:\/\/[^\s]+$/i, "an http(s) address");

export const tgSubmissionBodySchema = z.object({
  name: z.string().trim().min(2).max(80),
  botUsername,
  website: httpsUrl.or(z.literal("")).default(""),
  category: z.int().min(1).max(7),
  email: z.email().max(254),
  description: z.string().trim().min(10).max(2000),
});
export type TgSubmissionBody = z.infer<typeof tgSubmissionBodySchema>;

const localizedAppText = z.object({
  shortDescription: z.string().max(300).optional(),
  longDescription: z.string().max(20_000).optional(),
});

/** An app as an administrator writes it. `longDescription` is HTML, sanitised on save. */
export const tgAppInputSchema = z.object({
  slug,
  name: z.string().trim().min(1).max(80),
  category: z.int().min(1).max(7),
  editorsChoice: z.boolean().default(false),
  botUsername: botUsername.transform((s) => s.replace(/^@/, "")),
  startParam: z
    .string()
    .regex(/^[A-Za-z0-9_-]{0,64}$/)
    .default(""),
  website: httpsUrl.or(z.literal("")).default(""),
  iconUrl: httpsUrl.or(z.literal("")).default(""),
  screenshots: z.array(httpsUrl).max(12).default([]),
  languages: z.array(z.string().min(2).max(10)).max(40).default(["en"]),
  platforms: z.array(z.enum(TG_APP_PLATFORMS)).min(1).max(4),
  tokenLaunch: z.boolean().default(false),
  shortDescription: z.string().trim().min(1).max(300),
  longDescription: z.string().max(20_000).default(""),
  published: z.boolean().default(true),
  translations: z.record(z.string().min(2).max(10), localizedAppText).default({}),
});
export type TgAppInput = z.infer<typeof tgAppInputSchema>;
export type TgAppInputRaw = z.input<typeof tgAppInputSchema>;

/** An article as an administrator writes it. `body` is HTML, sanitised on save. */
export const tgArticleInputSchema = z.object({
  slug,
  appSlug: slug,
  title: z.string().trim().min(1).max(200),
  summary: z.string().max(1000).default(""),
  body: z.string().max(50_000).default(""),
  publishedAt: z.int().min(0),
  published: z.boolean().default(true),
  translations: z
    .record(
      z.string().min(2).max(10),
      z.object({
        title: z.string().max(200).optional(),
        summary: z.string().max(1000).optional(),
        body: z.string().max(50_000).optional(),
      }),
    )
    .default({}),
});
export type TgArticleInput = z.infer<typeof tgArticleInputSchema>;
export type TgArticleInputRaw = z.input<typeof tgArticleInputSchema>;

export const tgSubmissionReviewSchema = z.object({
  decision: z.enum(["approve", "reject"]),
  /** Slug of the app created on approval; derived from the name when absent. */
  slug: slug.optional(),
});
export type TgSubmissionReview = z.infer<typeof tgSubmissionReviewSchema>;

export const tgSubmissionIdParamsSchema = z.object({ id: z.coerce.number().int().min(1) });

/** An app as a card shows it. */
export interface TgAppSummary {
  slug: string;
  name: string;
  category: TgAppCategoryId;
  shortDescription: string;
  iconUrl: string;
  tags: TgAppTag[];
  /** Average stars, one decimal (0 when nobody rated). */
  rating: number;
  ratingCount: number;
}

export interface TgAppDetail extends TgAppSummary {
  longDescription: string;
  /** `https://t.me/<bot>?start=...`, already through sanitizeUrl ("" if refused). */
  openUrl: string;
  website: string;
  screenshots: string[];
  languages: string[];
  platforms: TgAppPlatform[];
  tokenLaunch: boolean;
  listedAt: number;
  updatedAt: number;
}

export interface TgArticleSummary {
  slug: string;
  appSlug: string;
  appName: string;
  title: string;
  summary: string;
  publishedAt: number;
}

export interface TgArticle extends TgArticleSummary {
  /** Sanitised HTML. */
  body: string;
}

export interface TgAppListResult {
  items: TgAppSummary[];
  /** Matches of this tab and search. */
  total: number;
  /** Every published app in the ecosystem (the tip). */
  totalApps: number;
  page: number;
  pageSize: number;
}

export interface TgAppDetailResult {
  app: TgAppDetail;
  relatedArticles: TgArticleSummary[];
  latestArticles: TgArticleSummary[];
  youMightAlsoLike: TgAppSummary[];
  hotApps: TgAppSummary[];
  moreApps: TgAppSummary[];
  /** The visitor's own stars, when logged in and rated. */
  myRating: number | null;
}

export interface TgArticlesResult {
  app: TgAppSummary;
  articles: TgArticle[];
}

export interface TgRatingResult {
  stars: number;
  rating: number;
  ratingCount: number;
}

export interface TgSitemapEntry {
  slug: string;
  updatedAt: number;
  hasArticles: boolean;
}

export interface TgSubmission {
  id: number;
  name: string;
  botUsername: string;
  website: string;
  category: number;
  email: string;
  description: string;
  status: "pending" | "approved" | "rejected";
  createdAt: number;
  appSlug: string | null;
}
