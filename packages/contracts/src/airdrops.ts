import {
  AIRDROP_DEFAULT_PAGE_SIZE,
  AIRDROP_PAGE_SIZES,
  AIRDROP_REQUIREMENTS,
  AIRDROP_SORT_FIELDS,
  AIRDROP_STATUSES,
  AIRDROP_TYPES,
  type AirdropRequirement,
  type AirdropStatus,
  type AirdropType,
} from "./airdrop-rules.ts";
import type { ProjectImages } from "./media-rules.ts";
import { z } from "./zod-csp.ts";

/**
 * The airdrop library (docs/product.md §2 "Airdrop library screens", section 3 "Airdrop"):
 * API paths, zod schemas and the pure status rules shared by server and pages.
 *
 * NOTE: money is a decimal string (USD), instants are epoch milliseconds (UTC). Text
 * fields arrive already localised: the server overlays the request locale's
 * translations on English.
 */

export * from "./airdrop-rules.ts";

// ---------------------------------------------------------------------------------------
// Shared field schemas

const decimal = z.string().regex(/^\d{1,15}(\.\d{1,12})?$/, "a plain non-negative decimal such as 12.5");
const epochMs = z.int().min(0).max(8_640_000_000_000);
const slug = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "lower-case words joined by hyphens");
const ticker = z
  .string()
  .min(1)
  .max(16)
  .regex(/^[A-Z0-9]+$/, "upper-case letters and digits");
const marketSymbol = z
  .string()
  .max(24)
  .regex(/^([A-Z0-9]+USDT)?$/, "a spot symbol such as NOTUSDT, or empty");
const url = z.union([z.literal(""), z.url({ protocol: /^https?$/ }).max(500)]);

export const guideStepSchema = z.object({ title: z.string().min(1).max(200), body: z.string().max(2000) });
export const faqItemSchema = z.object({ question: z.string().min(1).max(300), answer: z.string().max(4000) });
export type GuideStep = z.infer<typeof guideStepSchema>;
export type FaqItem = z.infer<typeof faqItemSchema>;

/** Text fields that may be translated per locale (English is the source). */
export const AIRDROP_TEXT_FIELDS = [
  "description",
  "about",
  "airdropInfo",
  "priceDetail",
  "prediction",
  "wikiTitle",
  "wikiBody",
] as const;
export type AirdropTextField = (typeof AIRDROP_TEXT_FIELDS)[number];

const localizedText = z.object({
  description: z.string().max(2000).optional(),
  about: z.string().max(20_000).optional(),
  airdropInfo: z.string().max(20_000).optional(),
  priceDetail: z.string().max(20_000).optional(),
  prediction: z.string().max(20_000).optional(),
  wikiTitle: z.string().max(200).optional(),
  wikiBody: z.string().max(50_000).optional(),
  guide: z.array(guideStepSchema).max(20).optional(),
  faq: z.array(faqItemSchema).max(20).optional(),
});

/**
 * One airdrop as an administrator or the import command writes it. Rich text fields
 * (about, airdropInfo, priceDetail, prediction, wikiBody) are HTML, sanitised on save.
 */
export const airdropInputSchema = z
  .object({
    slug,
    name: z.string().min(1).max(120),
    ticker,
    chain: z.string().min(1).max(40),
    type: z.enum(AIRDROP_TYPES),
    requirements: z.array(z.enum(AIRDROP_REQUIREMENTS)).max(5).default([]),
    marketSymbol: marketSymbol.default(""),
    estValue: decimal,
    seedPrice: decimal,
    predictedPrice: decimal,
    marketCap: decimal.default("0"),
    listingAt: epochMs.nullable().default(null),
    startAt: epochMs,
    endAt: epochMs,
    claimAt: epochMs.nullable().default(null),
    websiteUrl: url.default(""),
    whitepaperUrl: url.default(""),
    discordUrl: url.default(""),
    xUrl: url.default(""),
    description: z.string().min(1).max(2000),
    about: z.string().max(20_000).default(""),
    airdropInfo: z.string().max(20_000).default(""),
    priceDetail: z.string().max(20_000).default(""),
    prediction: z.string().max(20_000).default(""),
    wikiTitle: z.string().max(200).default(""),
    wikiBody: z.string().max(50_000).default(""),
    guide: z.array(guideStepSchema).max(20).default([]),
    faq: z.array(faqItemSchema).max(20).default([]),
    published: z.boolean().default(true),
    /** Per-locale overrides of the text fields; missing fields fall back to English. */
    translations: z.record(z.string().min(2).max(10), localizedText).default({}),
  })
  .refine((a) => a.endAt > a.startAt, { message: "endAt must be after startAt", path: ["endAt"] });
export type AirdropInput = z.infer<typeof airdropInputSchema>;
export type AirdropInputRaw = z.input<typeof airdropInputSchema>;

export const airdropNewsInputSchema = z.object({
  slug,
  /** The airdrop this item is about (its slug), or null for general news. */
  airdropSlug: slug.nullable().default(null),
  title: z.string().min(1).max(200),
  summary: z.string().max(1000).default(""),
  /** HTML, sanitised on save. */
  body: z.string().max(50_000).default(""),
  publishedAt: epochMs,
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
export type AirdropNewsInput = z.infer<typeof airdropNewsInputSchema>;

export const airdropPublishBodySchema = z.object({ published: z.boolean() });

// ---------------------------------------------------------------------------------------
// Queries

const localeParam = z.string().min(2).max(10).optional();
const csvOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (typeof v === "string" && v !== "" ? v : undefined), z.enum(values).optional());

export const airdropListQuerySchema = z.object({
  locale: localeParam,
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => (AIRDROP_PAGE_SIZES as readonly number[]).includes(n), "10, 20 or 50")
    .default(AIRDROP_DEFAULT_PAGE_SIZE),
  sort: csvOf(AIRDROP_SORT_FIELDS),
  order: csvOf(["asc", "desc"] as const),
  status: csvOf(AIRDROP_STATUSES),
  type: csvOf(AIRDROP_TYPES),
  requirement: csvOf(AIRDROP_REQUIREMENTS),
  chain: z.string().max(40).optional(),
  /** Name or ticker, case-insensitive substring. */
  q: z.string().max(60).optional(),
});
export type AirdropListQuery = z.infer<typeof airdropListQuerySchema>;

export const airdropLocaleQuerySchema = z.object({ locale: localeParam });
export const airdropNewsListQuerySchema = z.object({
  locale: localeParam,
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(10),
});
export const airdropSlugParamsSchema = z.object({ slug });

// ---------------------------------------------------------------------------------------
// Answers

export interface AirdropLinks {
  website: string;
  whitepaper: string;
  discord: string;
  x: string;
}

/** A row of the All airdrops table. */
export interface AirdropSummary {
  slug: string;
  name: string;
  ticker: string;
  chain: string;
  type: AirdropType;
  requirements: AirdropRequirement[];
  status: AirdropStatus;
  /** Days until the end date (0 once closed). */
  daysLeft: number;
  estValue: string;
  currentPrice: string;
  predictedPrice: string;
  marketSymbol: string;
  listingAt: number | null;
  startAt: number;
  endAt: number;
  claimAt: number | null;
  description: string;
  /** The language `description` is in: the request's when the airdrop is written in it, else "en". */
  textLocale: string;
  updatedAt: number;
  /** Uploaded or generated images (logo in lists; cover too on the detail page). */
  images?: ProjectImages;
}

export interface AirdropDetail extends AirdropSummary {
  about: string;
  airdropInfo: string;
  priceDetail: string;
  prediction: string;
  wikiTitle: string;
  wikiBody: string;
  guide: GuideStep[];
  faq: FaqItem[];
  links: AirdropLinks;
  /** The translation set the text came from: the request's, or "en" when it had none for this airdrop. */
  contentLocale: string;
  /** Content languages this airdrop is written in ("en" first): the page's hreflang set. */
  contentLanguages: string[];
}

export interface AirdropNewsItem {
  slug: string;
  title: string;
  summary: string;
  /** The language title and summary are in: the request's when the item is written in it, else "en". */
  textLocale: string;
  airdropSlug: string | null;
  publishedAt: number;
}

/** One news item on its own page (`/airdrops/news/<slug>`). */
export interface AirdropNewsArticle extends AirdropNewsItem {
  /** Sanitised HTML in `contentLocale`. */
  body: string;
  updatedAt: number;
  /** The airdrop the item is about, for the link back, or null for general news. */
  airdropName: string | null;
  /** The translation set the text came from: the request's, or "en". */
  contentLocale: string;
  /** Content languages this item is written in ("en" first). */
  contentLanguages: string[];
}

export interface AirdropNewsDetailResult {
  item: AirdropNewsArticle;
  /** Other recent published news, newest first. */
  related: AirdropNewsItem[];
}

export interface PopularCoin {
  symbol: string;
  name: string;
  price: string;
  marketCap: string;
  change24h: string;
  /** The coin's USDT spot pair, "" when the market does not list one (stablecoins). */
  marketSymbol: string;
}

export interface AirdropListResult {
  items: AirdropSummary[];
  total: number;
  page: number;
  pageSize: number;
  /** Values offered by the chain filter. */
  chains: string[];
}

export interface AirdropDetailResult {
  airdrop: AirdropDetail;
  previous: AirdropSummary | null;
  next: AirdropSummary | null;
  others: AirdropSummary[];
  news: AirdropNewsItem[];
  now: number;
}

export interface AirdropHomeResult {
  popular: PopularCoin[];
  news: AirdropNewsItem[];
  faq: FaqItem[];
  featured: AirdropSummary[];
  counts: Record<AirdropStatus, number>;
  now: number;
}

export interface AirdropNewsListResult {
  items: AirdropNewsItem[];
  total: number;
  page: number;
  pageSize: number;
}

export interface AirdropIndexEntry {
  slug: string;
  name: string;
  ticker: string;
  description: string;
  startAt: number;
  endAt: number;
  createdAt: number;
  updatedAt: number;
  /** Content languages the airdrop is written in: its sitemaps and hreflang set. */
  contentLanguages: string[];
}

export interface AirdropIndexResult {
  items: AirdropIndexEntry[];
  /** Every published news item, for sitemaps. */
  news: { slug: string; publishedAt: number; updatedAt: number; contentLanguages: string[] }[];
}

/** `POST /v1/mix/public/getTdkMltQueryList`: title/description/keywords per page key. */
export const pageMetaQuerySchema = z.object({
  locale: z.string().min(2).max(10).default("en"),
  pageKeys: z.array(z.string().min(1).max(80)).min(1).max(50),
});
export interface PageMeta {
  pageKey: string;
  /** The locale the row came from: the one asked for, or "en" when it fell back. */
  locale: string;
  title: string;
  description: string;
  keywords: string;
  updatedAt: number;
}
export interface PageMetaResult {
  list: PageMeta[];
}

/** Admin list row: summary plus the publish flag. */
export interface AdminAirdropRow extends AirdropSummary {
  id: number;
  published: boolean;
  /** Languages the airdrop is written in (docs/content.md); the editor shows the missing ones. */
  contentLanguages: string[];
}
export interface AdminAirdropNewsRow extends AirdropNewsItem {
  id: number;
  /** Sanitised HTML, so the edit form saves it back unchanged. */
  body: string;
  published: boolean;
  /** Languages the item is written in. */
  contentLanguages: string[];
}
