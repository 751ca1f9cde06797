import {
  CONTENT_LANGUAGES,
  type ContentPageKey,
  type ContentPageResult,
  type ContentPageTextFile,
  getLocale,
  normalizeLocale,
} from "@meridian/contracts";
import type { Db, Queryable } from "../../platform/db/types.ts";
import { errors } from "../../platform/errors.ts";
import { HOME_FAQ_KEY } from "../airdrops/index.ts";
import { contentTexts } from "./texts.ts";

/** The database key of each content page (the airdrop home keeps its historical FAQ key). */
export const PAGE_KEYS: Record<ContentPageKey, string> = {
  "airdrops-home": HOME_FAQ_KEY,
  "tg-apps-home": "tg-apps.home",
};

/** Writes one page's texts in one language; an existing row is left alone. */
export async function savePageText(
  tx: Queryable,
  page: ContentPageKey,
  locale: string,
  text: ContentPageTextFile,
  now: number,
): Promise<void> {
  await tx.run(
    `INSERT INTO content_pages (page_key, locale, title, description, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (page_key, locale) DO NOTHING`,
    [PAGE_KEYS[page], locale, text.title, text.description, now],
  );
  await contentTexts.saveFaq(tx, PAGE_KEYS[page], locale, text.faq);
}

/**
 * A content page in the request's content language, or wholly in English when it is not
 * written in that language (`contentLocale` says which), with the languages it exists in.
 */
export async function readPage(
  db: Db,
  page: ContentPageKey,
  requestLocale: string,
): Promise<ContentPageResult> {
  const key = PAGE_KEYS[page];
  const wanted = getLocale(normalizeLocale(requestLocale) ?? "en").content;
  const rows = await db.all<{
    locale: string;
    title: string;
    description: string;
    updated_at: number | string;
  }>("SELECT locale, title, description, updated_at FROM content_pages WHERE page_key = ? ORDER BY locale", [
    key,
  ]);
  const chosen = rows.find((r) => r.locale === wanted) ?? rows.find((r) => r.locale === "en");
  if (!chosen) throw errors.notFound("No such page");
  const faq = await contentTexts.faqIn(db, key, chosen.locale);
  const written = new Set(rows.map((r) => r.locale));
  return {
    title: chosen.title,
    description: chosen.description,
    faq,
    contentLocale: chosen.locale,
    contentLanguages: CONTENT_LANGUAGES.filter((l) => written.has(l)),
    updatedAt: Number(chosen.updated_at),
  };
}
