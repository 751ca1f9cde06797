import { ddl } from "../ddl.ts";
import type { Dialect } from "../types.ts";

/**
 * Images (modules/media): one row per stored image, content-addressed, with the widths
 * it is encoded at; `source_svg` holds the generated demo artwork, rendered into the
 * store on first request. `media_links` says which images an airdrop or app shows, in
 * which role and order; it names the item by slug so the content modules stay unaware.
 */
export function up(dialect: Dialect): string[] {
  const t = ddl(dialect);
  return [
    `CREATE TABLE media_assets (
      id TEXT PRIMARY KEY,
      role TEXT NOT NULL,
      width INTEGER NOT NULL,
      height INTEGER NOT NULL,
      widths TEXT NOT NULL,
      heights TEXT NOT NULL,
      bytes ${t.bigint} NOT NULL DEFAULT 0,
      source_svg TEXT,
      created_at ${t.bigint} NOT NULL
    )`,
    `CREATE TABLE media_links (
      owner TEXT NOT NULL,
      slug TEXT NOT NULL,
      role TEXT NOT NULL,
      position INTEGER NOT NULL,
      asset_id TEXT NOT NULL REFERENCES media_assets(id),
      PRIMARY KEY (owner, slug, role, position)
    )`,
    "CREATE INDEX media_links_asset_idx ON media_links (asset_id)",
  ];
}
