import type { ProjectImages } from "./media-rules.ts";
import {
  TG_APP_PLATFORMS,
  TG_APP_TABS,
  TG_APPS_PAGE_SIZE,
  type TgAppCategoryId,
  type TgAppPlatform,
  type TgAppTag,
} from "./tg-app-rules.ts";
import { z } from "./zod-csp.ts";

/**
 * The Apps and Bot Center (docs/product.md §2 "Messaging-platform apps and bots centre",
 * section 3 "Messaging-platform app"): API paths, categories, tabs, the rating limit,
 * zod schemas and answer types shared by the server, the pages and the tests.
 *
 * NOTE: instants are epoch milliseconds (UTC). Text fields arrive localised: the server
 * overlays the request locale's translations on English, field by field.
 */
export * from "./tg-app-rules.ts";

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
  /** The language `shortDescription` is in: the request's (or its base's) when the app is written in it, else "en". */
  textLocale: string;
  iconUrl: string;
  tags: TgAppTag[];
  /** Average stars, one decimal (0 when nobody rated). */
  rating: number;
  ratingCount: number;
  /** Uploaded or generated images (logo in lists; screenshots too on the detail page). */
  images?: ProjectImages;
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
  /** The language the texts came from: the request's content language, or "en". */
  contentLocale: string;
  /** Content languages the app's page is written in ("en" first): its hreflang set. */
  contentLanguages: string[];
}

export interface TgArticleSummary {
  slug: string;
  appSlug: string;
  appName: string;
  title: string;
  summary: string;
  /** The language title and summary are in: the request's (or its base's) when the article is written in it, else "en". */
  textLocale: string;
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
  /** The language the articles came from: the request's content language, or "en". */
  contentLocale: string;
  /** Languages every article of the app is written in ("en" first): the page's hreflang set. */
  contentLanguages: string[];
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
  /** Content languages of the detail page. */
  contentLanguages: string[];
  /** Content languages of the articles page (every article written in them). */
  articleLanguages: string[];
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

/** An app row of the administrators' list (`GET /v1/admin/tg-apps/apps`). */
export interface TgAdminAppRow {
  slug: string;
  name: string;
  category: number;
  published: boolean;
  ratingCount: number;
  updatedAt: number;
  /** Languages the app is written in (its long description stored there), "en" first. */
  contentLanguages: string[];
}

/** An article row of the administrators' list (`GET /v1/admin/tg-apps/articles`). */
export interface TgAdminArticleRow {
  slug: string;
  appSlug: string;
  title: string;
  published: boolean;
  publishedAt: number;
  /** Languages the article is written in (its body stored there), "en" first. */
  contentLanguages: string[];
}
