import { AIRDROP_REQUIREMENTS, AIRDROP_TYPES } from "./airdrop-rules.ts";
import { TG_APP_PLATFORMS } from "./tg-app-rules.ts";
import { z } from "./zod-csp.ts";

/**
 * The demo content as data (docs/content.md): one directory per item under
 * `apps/server/content/<kind>/<slug>/`, holding `item.json` (the facts every language
 * shares) and one `<language>.json` per language the item is written in. A language file
 * is the whole text of the item in that language: a page exists in a language exactly
 * when its file does. These schemas validate every file before the seeder writes it.
 */

/**
 * Languages content is written in, by the site's locale codes (`ph` is Filipino,
 * `zh-CN` Simplified and `zh-TC` Traditional Chinese). Regional sites read their base
 * language's content (es-AR reads `es`).
 */
export const CONTENT_LANGUAGES = [
  "ar",
  "de",
  "en",
  "es",
  "fr",
  "id",
  "it",
  "ja",
  "nl",
  "ph",
  "pl",
  "pt",
  "ru",
  "sv",
  "th",
  "tr",
  "uk",
  "uz",
  "vi",
  "zh-CN",
  "zh-TC",
] as const;
export type ContentLanguage = (typeof CONTENT_LANGUAGES)[number];
export const contentLanguageSchema = z.enum(CONTENT_LANGUAGES);

/** Kinds of content directory under `apps/server/content/`. */
export const CONTENT_KINDS = ["airdrops", "airdrop-news", "tg-apps", "tg-articles", "pages"] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

/** Fixed pages with written texts: their directory under `pages/` and the FAQ length. */
export const CONTENT_PAGES = { "airdrops-home": { faq: 8 }, "tg-apps-home": { faq: 6 } } as const;
export type ContentPageKey = keyof typeof CONTENT_PAGES;

const text = (max: number) => z.string().trim().min(1).max(max);
const html = (max: number) => z.string().trim().min(1).max(max);
const decimal = z.string().regex(/^\d{1,15}(\.\d{1,12})?$/, "a plain non-negative decimal such as 12.5");
const url = z.union([z.literal(""), z.url({ protocol: /^https?$/ }).max(500)]);
const slug = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "lower-case words joined by hyphens");
/** Whole days relative to the UTC day the seed runs (negative: in the past). */
const day = z.int().min(-5000).max(5000);
const faq = z.object({ question: text(300), answer: text(4000) }).strict();
const step = z.object({ title: text(200), body: text(2000) }).strict();

export const airdropItemFileSchema = z
  .object({
    name: text(120),
    ticker: z.string().regex(/^[A-Z0-9]{1,16}$/),
    chain: text(40),
    type: z.enum(AIRDROP_TYPES),
    requirements: z.array(z.enum(AIRDROP_REQUIREMENTS)).max(5),
    estValue: decimal,
    /** Last known price in USD; "0" while the token has not listed. */
    seedPrice: decimal,
    predictedPrice: decimal,
    marketCap: decimal,
    days: z
      .object({ start: day, end: day, listing: day.nullable(), claim: day.nullable() })
      .strict()
      .refine((d) => d.end > d.start, "end after start"),
    /**
     * The token trades since before this airdrop started (a later season of a listed
     * token): its listing day may precede the start (content-invariants.test.ts).
     */
    preListed: z.literal(true).optional(),
    links: z.object({ website: url, whitepaper: url, discord: url, x: url }).strict(),
    /** Editorial popularity 0-100: orders "Airdrops to watch" and picks the most popular. */
    popularity: z.int().min(0).max(100),
  })
  .strict()
  // A price exists exactly from the listing day on: none before, always one after.
  .refine((a) => (a.days.listing !== null && a.days.listing <= 0) === (a.seedPrice !== "0"), {
    message: 'seedPrice is "0" until the listing day and a price from then on',
    path: ["seedPrice"],
  });
export type AirdropItemFile = z.infer<typeof airdropItemFileSchema>;

/** The text of one airdrop in one language. HTML fields are sanitised on save. */
export const airdropTextFileSchema = z
  .object({
    description: text(2000),
    about: html(20_000),
    airdropInfo: html(20_000),
    priceDetail: html(20_000),
    prediction: html(20_000),
    wikiTitle: text(200),
    wikiBody: html(50_000),
    /** The project's own steps; the page adds the fixed account step itself. */
    guide: z.array(step).min(1).max(20),
    faq: z.array(faq).min(1).max(20),
  })
  .strict();
export type AirdropTextFile = z.infer<typeof airdropTextFileSchema>;

export const airdropNewsItemFileSchema = z
  .object({ airdropSlug: slug.nullable(), daysAgo: z.int().min(0).max(5000) })
  .strict();
export type AirdropNewsItemFile = z.infer<typeof airdropNewsItemFileSchema>;

export const airdropNewsTextFileSchema = z
  .object({ title: text(200), summary: text(1000), body: html(50_000) })
  .strict();
export type AirdropNewsTextFile = z.infer<typeof airdropNewsTextFileSchema>;

export const tgAppItemFileSchema = z
  .object({
    name: text(80),
    category: z.int().min(1).max(7),
    botUsername: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{2,31}$/, "a Telegram username without @"),
    website: url,
    tokenLaunch: z.boolean(),
    /** Editor's choice: kept for a chosen few. */
    editorsChoice: z.boolean(),
    platforms: z.array(z.enum(TG_APP_PLATFORMS)).min(1).max(4),
    /** The app's own interface languages (not the languages of this site's text). */
    languages: z.array(z.string().min(2).max(10)).min(1).max(40),
    listedDaysAgo: z.int().min(0).max(5000),
    /** Editorial popularity 0-100: drives the seeded visits and ratings, so the Hot ranking. */
    popularity: z.int().min(0).max(100),
  })
  .strict();
export type TgAppItemFile = z.infer<typeof tgAppItemFileSchema>;

export const tgAppTextFileSchema = z
  .object({ shortDescription: text(300), longDescription: html(20_000) })
  .strict();
export type TgAppTextFile = z.infer<typeof tgAppTextFileSchema>;

export const tgArticleItemFileSchema = z.object({ app: slug, daysAgo: z.int().min(0).max(5000) }).strict();
export type TgArticleItemFile = z.infer<typeof tgArticleItemFileSchema>;

export const tgArticleTextFileSchema = z
  .object({ title: text(200), summary: text(1000), body: html(50_000) })
  .strict();
export type TgArticleTextFile = z.infer<typeof tgArticleTextFileSchema>;

/** A fixed page's written texts in one language: heading, introduction and FAQ. */
export const contentPageTextFileSchema = z
  .object({ title: text(200), description: text(1000), faq: z.array(faq).min(1).max(20) })
  .strict();
export type ContentPageTextFile = z.infer<typeof contentPageTextFileSchema>;

/** The language file schema of each kind. */
export const CONTENT_TEXT_SCHEMAS = {
  airdrops: airdropTextFileSchema,
  "airdrop-news": airdropNewsTextFileSchema,
  "tg-apps": tgAppTextFileSchema,
  "tg-articles": tgArticleTextFileSchema,
  pages: contentPageTextFileSchema,
} as const;

/** `GET /v1/content/pages/:page?locale=`: a content page's written texts. */
export const CONTENT_PAGE_PATH = "/v1/content/pages/:page";
export const contentPageParamsSchema = z.object({
  page: z.enum(Object.keys(CONTENT_PAGES) as [ContentPageKey, ...ContentPageKey[]]),
});
export const contentPageQuerySchema = z.object({ locale: z.string().min(2).max(10).default("en") });

export interface ContentPageResult {
  title: string;
  description: string;
  faq: { question: string; answer: string }[];
  /** The language the texts are in: the request's content language, or "en". */
  contentLocale: string;
  /** Content languages the page is written in: its sitemaps and hreflang set. */
  contentLanguages: string[];
  updatedAt: number;
}

/** A term one language writes one way everywhere (docs/content.md, "Glossary"). */
export interface GlossaryTerm {
  /** The English term. */
  readonly term: string;
  /** The word the language uses. */
  readonly use: string;
  /** Spellings its texts never use. */
  readonly avoid: RegExp;
}

/** Checked over the interface strings (i18n:check) and the content files (their tests). */
export const GLOSSARY: Partial<Record<ContentLanguage, readonly GlossaryTerm[]>> = {
  // The header once said one word and the titles another; the titles' word stays.
  ar: [{ term: "airdrop", use: "الإنزال الجوي (الإنزالات الجوية)", avoid: /[إا]ي?ردروب/u }],
};
