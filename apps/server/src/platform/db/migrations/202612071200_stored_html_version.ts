import type { Dialect } from "../types.ts";

/**
 * The sanitiser version that cleaned each entity's stored rich text (its own columns and
 * its translations). Existing rows start at 0, so the first start cleans them once more
 * with the current sanitiser and marks them (platform/stored-html.ts); pages then serve
 * stored HTML without sanitising it per view.
 */
export function up(_dialect: Dialect): string[] {
  return ["airdrops", "airdrop_news", "tg_apps", "tg_articles"].map(
    (table) => `ALTER TABLE ${table} ADD COLUMN html_version INTEGER NOT NULL DEFAULT 0`,
  );
}
