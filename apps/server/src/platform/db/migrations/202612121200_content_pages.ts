import { ddl } from "../ddl.ts";
import type { Dialect } from "../types.ts";

/**
 * Written texts of fixed content pages (the airdrop home, the Apps and Bot Center home)
 * per language: heading and introduction. Their FAQ lives in content_faq under the same
 * page key. A page is written in a language when its row exists (docs/content.md).
 */
export function up(dialect: Dialect): string[] {
  const t = ddl(dialect);
  return [
    `CREATE TABLE content_pages (
      page_key TEXT NOT NULL,
      locale TEXT NOT NULL,
      title TEXT NOT NULL,
      description TEXT NOT NULL,
      updated_at ${t.bigint} NOT NULL,
      PRIMARY KEY (page_key, locale)
    )`,
  ];
}
