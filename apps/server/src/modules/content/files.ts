import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  type AirdropItemFile,
  type AirdropNewsItemFile,
  type AirdropNewsTextFile,
  type AirdropTextFile,
  airdropItemFileSchema,
  airdropNewsItemFileSchema,
  airdropNewsTextFileSchema,
  airdropTextFileSchema,
  CONTENT_LANGUAGES,
  CONTENT_PAGES,
  type ContentLanguage,
  type ContentPageKey,
  type ContentPageTextFile,
  contentPageTextFileSchema,
  type TgAppItemFile,
  type TgAppTextFile,
  type TgArticleItemFile,
  type TgArticleTextFile,
  tgAppItemFileSchema,
  tgAppTextFileSchema,
  tgArticleItemFileSchema,
  tgArticleTextFileSchema,
} from "@meridian/contracts";
import type { z } from "zod";

/**
 * Reads the demo content (docs/content.md): `apps/server/content/<kind>/<slug>/item.json`
 * plus one `<language>.json` per written language, each checked against its contract
 * schema. Every problem is collected, so one run lists them all.
 */
export const CONTENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../content");

export type Texts<T> = Partial<Record<ContentLanguage, T>>;
export interface ContentItem<I, T> {
  slug: string;
  item: I;
  /** Always holds `en`; other languages only where their file exists. */
  texts: Texts<T> & { en: T };
}

export interface ContentLibrary {
  airdrops: ContentItem<AirdropItemFile, AirdropTextFile>[];
  news: ContentItem<AirdropNewsItemFile, AirdropNewsTextFile>[];
  apps: ContentItem<TgAppItemFile, TgAppTextFile>[];
  articles: ContentItem<TgArticleItemFile, TgArticleTextFile>[];
  pages: Record<ContentPageKey, Texts<ContentPageTextFile>>;
  /** Files read, for the check command's report. */
  files: number;
}

export class ContentError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`demo content has ${problems.length} problem(s):\n${problems.join("\n")}`);
    this.problems = problems;
  }
}

const LANGS = new Set<string>(CONTENT_LANGUAGES);
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Paragraph-level blocks of an HTML or plain text, normalised for comparison. */
function paragraphs(value: unknown): string[] {
  if (typeof value === "string") {
    return value
      .split(/<\/?(?:p|li|h2|h3)>|\n/)
      .map((s) =>
        s
          .replace(/<[^>]+>/g, "")
          .trim()
          .toLowerCase(),
      )
      .filter((s) => s.length >= 40);
  }
  if (Array.isArray(value)) return value.flatMap(paragraphs);
  if (value && typeof value === "object") return Object.values(value).flatMap(paragraphs);
  return [];
}

/** The first paragraph written twice in one file, if any. */
export function repeatedParagraph(text: unknown): string | undefined {
  const seen = new Set<string>();
  for (const p of paragraphs(text)) {
    if (seen.has(p)) return p;
    seen.add(p);
  }
  return undefined;
}

export function loadContent(dir = CONTENT_DIR): ContentLibrary {
  const problems: string[] = [];
  let files = 0;
  const rel = (file: string) => path.relative(dir, file);

  function readJson<T>(file: string, schema: z.ZodType<T>): T | undefined {
    files++;
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, "utf8"));
    } catch (err) {
      problems.push(`${rel(file)}: not valid JSON (${(err as Error).message})`);
      return undefined;
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push(`${rel(file)}: ${issue.path.join(".") || "(file)"}: ${issue.message}`);
      return undefined;
    }
    return parsed.data;
  }

  function readTexts<T>(folder: string, schema: z.ZodType<T>): Texts<T> {
    const texts: Texts<T> = {};
    for (const name of readdirSync(folder).sort()) {
      if (name === "item.json") continue;
      const lang = name.replace(/\.json$/, "");
      if (!name.endsWith(".json") || !LANGS.has(lang)) {
        problems.push(
          `${rel(path.join(folder, name))}: not a content language file (${[...LANGS].join(", ")})`,
        );
        continue;
      }
      const text = readJson(path.join(folder, name), schema);
      if (text === undefined) continue;
      const twice = repeatedParagraph(text);
      if (twice)
        problems.push(`${rel(path.join(folder, name))}: paragraph written twice: "${twice.slice(0, 60)}"`);
      texts[lang as ContentLanguage] = text;
    }
    return texts;
  }

  function readKind<I, T>(
    kind: string,
    itemSchema: z.ZodType<I>,
    textSchema: z.ZodType<T>,
  ): ContentItem<I, T>[] {
    const root = path.join(dir, kind);
    if (!existsSync(root)) return [];
    const out: ContentItem<I, T>[] = [];
    for (const slug of readdirSync(root).sort()) {
      const folder = path.join(root, slug);
      if (!SLUG.test(slug)) {
        problems.push(`${kind}/${slug}: a slug is lower-case words joined by hyphens`);
        continue;
      }
      if (!existsSync(path.join(folder, "item.json"))) {
        problems.push(`${kind}/${slug}: item.json is missing`);
        continue;
      }
      const item = readJson(path.join(folder, "item.json"), itemSchema);
      const texts = readTexts(folder, textSchema);
      if (!texts.en) problems.push(`${kind}/${slug}: en.json is missing (English is the source)`);
      if (item !== undefined && texts.en)
        out.push({ slug, item, texts: texts as ContentItem<I, T>["texts"] });
    }
    return out;
  }

  const airdrops = readKind("airdrops", airdropItemFileSchema, airdropTextFileSchema);
  const news = readKind("airdrop-news", airdropNewsItemFileSchema, airdropNewsTextFileSchema);
  const apps = readKind("tg-apps", tgAppItemFileSchema, tgAppTextFileSchema);
  const articles = readKind("tg-articles", tgArticleItemFileSchema, tgArticleTextFileSchema);
  const pages = {} as Record<ContentPageKey, Texts<ContentPageTextFile>>;
  for (const [key, rule] of Object.entries(CONTENT_PAGES) as [ContentPageKey, { faq: number }][]) {
    const folder = path.join(dir, "pages", key);
    const texts = existsSync(folder) ? readTexts(folder, contentPageTextFileSchema) : {};
    if (!texts.en) problems.push(`pages/${key}: en.json is missing`);
    for (const [lang, text] of Object.entries(texts))
      if (text.faq.length !== rule.faq)
        problems.push(`pages/${key}/${lang}.json: faq holds ${rule.faq} items`);
    pages[key] = texts;
  }

  const airdropSlugs = new Set(airdrops.map((a) => a.slug));
  for (const n of news)
    if (n.item.airdropSlug !== null && !airdropSlugs.has(n.item.airdropSlug))
      problems.push(
        `airdrop-news/${n.slug}/item.json: airdropSlug "${n.item.airdropSlug}" is not an airdrop`,
      );
  const appSlugs = new Set(apps.map((a) => a.slug));
  for (const a of articles)
    if (!appSlugs.has(a.item.app))
      problems.push(`tg-articles/${a.slug}/item.json: app "${a.item.app}" is not an app`);
  // A translation mirrors the English structure, so the pages line up in every language.
  for (const a of airdrops)
    for (const [lang, t] of Object.entries(a.texts))
      if (t.guide.length !== a.texts.en.guide.length || t.faq.length !== a.texts.en.faq.length)
        problems.push(`airdrops/${a.slug}/${lang}.json: guide and faq have as many items as en.json`);

  if (problems.length > 0) throw new ContentError(problems);
  return { airdrops, news, apps, articles, pages, files };
}
