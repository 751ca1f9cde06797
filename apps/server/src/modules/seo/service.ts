import { getLocale, normalizeLocale, type PageMeta, type PageMetaResult } from "@meridian/contracts";
import type { Queryable } from "../../platform/db/types.ts";

interface PageMetaRow {
  page_key: string;
  locale: string;
  title: string;
  description: string;
  keywords: string;
  updated_at: number | string;
}

/**
 * Title, description and keywords per page key (docs/product.md §7, getTdkMltQueryList):
 * the row for the request's content locale, else the English row. Keys without any row
 * are left out, so the page falls back to its own translated defaults.
 */
export async function queryPageMeta(
  db: Queryable,
  locale: string,
  pageKeys: readonly string[],
): Promise<PageMetaResult> {
  const content = getLocale(normalizeLocale(locale) ?? "en").content;
  const keys = [...new Set(pageKeys)];
  const rows = await db.all<PageMetaRow>(
    `SELECT * FROM page_meta WHERE locale IN (?, 'en') AND page_key IN (${keys.map(() => "?").join(", ")})`,
    [content, ...keys],
  );
  const list: PageMeta[] = [];
  for (const key of keys) {
    const row =
      rows.find((r) => r.page_key === key && r.locale === content) ?? rows.find((r) => r.page_key === key);
    if (!row) continue;
    list.push({
      pageKey: row.page_key,
      locale: row.locale,
      title: row.title,
      description: row.description,
      keywords: row.keywords,
      updatedAt: Number(row.updated_at),
    });
  }
  return { list };
}

export async function savePageMeta(
  db: Queryable,
  row: Omit<PageMeta, "updatedAt">,
  now: number,
  mode: "insert-only" | "upsert" = "upsert",
): Promise<void> {
  const conflict =
    mode === "insert-only"
      ? "DO NOTHING"
      : "DO UPDATE SET title = excluded.title, description = excluded.description, keywords = excluded.keywords, updated_at = excluded.updated_at";
  await db.run(
    `INSERT INTO page_meta (page_key, locale, title, description, keywords, updated_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (page_key, locale) ${conflict}`,
    [row.pageKey, row.locale, row.title, row.description, row.keywords, now],
  );
}
