import type { PageMetaInput, PageMetaRow } from "@meridian/contracts";
import { PAGE_META_LOCALES } from "@meridian/contracts";
import type { Db } from "../../platform/db/types.ts";
import { savePageMeta } from "./service.ts";

interface Row {
  page_key: string;
  locale: string;
  title: string;
  description: string;
  keywords: string;
  updated_at: number | string;
}

const present = (r: Row): PageMetaRow => ({
  pageKey: r.page_key,
  locale: r.locale,
  title: r.title,
  description: r.description,
  keywords: r.keywords,
  updatedAt: Number(r.updated_at),
});

export interface PageMetaAdminList {
  rows: PageMetaRow[];
  /** Every page key with at least one row, sorted. */
  pageKeys: string[];
  /** The locales a row may be written in. */
  locales: readonly string[];
}

/** Every stored row, by page key then locale (English first). */
export async function listPageMeta(db: Db): Promise<PageMetaAdminList> {
  const rows = (await db.all<Row>("SELECT * FROM page_meta ORDER BY page_key, locale")).map(present);
  rows.sort((a, b) =>
    a.pageKey === b.pageKey
      ? Number(b.locale === "en") - Number(a.locale === "en") || a.locale.localeCompare(b.locale)
      : a.pageKey.localeCompare(b.pageKey),
  );
  return { rows, pageKeys: [...new Set(rows.map((r) => r.pageKey))], locales: PAGE_META_LOCALES };
}

/** Creates or replaces one row (input already validated and cleaned by the schema). */
export async function putPageMeta(db: Db, input: PageMetaInput, now: number): Promise<PageMetaRow> {
  await savePageMeta(db, input, now, "upsert");
  return { ...input, updatedAt: now };
}

/** Removes one row; false when there was none. */
export async function deletePageMeta(db: Db, pageKey: string, locale: string): Promise<boolean> {
  const r = await db.run("DELETE FROM page_meta WHERE page_key = ? AND locale = ?", [pageKey, locale]);
  return r.changes > 0;
}
