import { ddl } from "../ddl.ts";
import type { Dialect } from "../types.ts";

/**
 * Search-engine metadata per page key and locale (title, description, keywords): the
 * table behind `POST /v1/mix/public/getTdkMltQueryList`. Titles may hold `{name}`-style
 * placeholders the page fills in.
 */
export function up(dialect: Dialect): string[] {
  const t = ddl(dialect);
  return [
    `CREATE TABLE page_meta (
      page_key TEXT NOT NULL,
      locale TEXT NOT NULL,
      title TEXT NOT NULL,
      description TEXT NOT NULL,
      keywords TEXT NOT NULL DEFAULT '',
      updated_at ${t.bigint} NOT NULL,
      PRIMARY KEY (page_key, locale)
    )`,
  ];
}
