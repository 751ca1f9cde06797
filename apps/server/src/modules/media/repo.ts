import type { MediaLinks, MediaOwner, MediaRole } from "@meridian/contracts";
import type { Db, Queryable } from "../../platform/db/types.ts";

export interface AssetRow {
  id: string;
  role: MediaRole;
  width: number;
  height: number;
  widths: number[];
  heights: number[];
  /** Generated artwork not rendered yet: the SVG it renders from. */
  sourceSvg: string | null;
}

interface RawAsset {
  id: string;
  role: string;
  width: number;
  height: number;
  widths: string;
  heights: string;
  source_svg: string | null;
}

const list = (text: string) =>
  text
    .split(",")
    .filter((s) => s !== "")
    .map(Number);
const toRow = (r: RawAsset): AssetRow => ({
  id: r.id,
  role: r.role as MediaRole,
  width: Number(r.width),
  height: Number(r.height),
  widths: list(r.widths),
  heights: list(r.heights),
  sourceSvg: r.source_svg,
});

export interface NewAsset {
  id: string;
  role: MediaRole;
  width: number;
  height: number;
  widths: number[];
  heights: number[];
  bytes: number;
  sourceSvg: string | null;
}

export interface LinkRow {
  owner: MediaOwner;
  slug: string;
  role: MediaRole;
  position: number;
  assetId: string;
}

export class MediaRepo {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  /** Same id, same content: a second insert of an id changes nothing. */
  async insertAsset(a: NewAsset, now: number, q: Queryable = this.#db): Promise<void> {
    await q.run(
      `INSERT INTO media_assets (id, role, width, height, widths, heights, bytes, source_svg, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
      [a.id, a.role, a.width, a.height, a.widths.join(","), a.heights.join(","), a.bytes, a.sourceSvg, now],
    );
  }

  /** Generated artwork rendered: drop its source, record its bytes. */
  async markRendered(id: string, bytes: number): Promise<void> {
    await this.#db.run("UPDATE media_assets SET source_svg = NULL, bytes = ? WHERE id = ?", [bytes, id]);
  }

  async asset(id: string): Promise<AssetRow | undefined> {
    const row = await this.#db.get<RawAsset>(
      "SELECT id, role, width, height, widths, heights, source_svg FROM media_assets WHERE id = ?",
      [id],
    );
    return row === undefined ? undefined : toRow(row);
  }

  async assets(ids: readonly string[]): Promise<Map<string, AssetRow>> {
    const out = new Map<string, AssetRow>();
    if (ids.length === 0) return out;
    const unique = [...new Set(ids)];
    const rows = await this.#db.all<RawAsset>(
      `SELECT id, role, width, height, widths, heights, NULL AS source_svg FROM media_assets
       WHERE id IN (${unique.map(() => "?").join(", ")})`,
      unique,
    );
    for (const r of rows) out.set(r.id, toRow(r));
    return out;
  }

  async links(owner: MediaOwner, slugs: readonly string[], roles?: readonly MediaRole[]): Promise<LinkRow[]> {
    if (slugs.length === 0) return [];
    const unique = [...new Set(slugs)];
    const roleFilter = roles === undefined ? "" : ` AND role IN (${roles.map(() => "?").join(", ")})`;
    const rows = await this.#db.all<{ slug: string; role: string; position: number; asset_id: string }>(
      `SELECT slug, role, position, asset_id FROM media_links
       WHERE owner = ? AND slug IN (${unique.map(() => "?").join(", ")})${roleFilter}
       ORDER BY slug, role, position`,
      [owner, ...unique, ...(roles ?? [])],
    );
    return rows.map((r) => ({
      owner,
      slug: r.slug,
      role: r.role as MediaRole,
      position: Number(r.position),
      assetId: r.asset_id,
    }));
  }

  /** The slugs among `slugs` that have at least one image linked. */
  async slugsWithLinks(owner: MediaOwner, slugs: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    const unique = [...new Set(slugs)];
    // Chunks keep the parameter count well under both databases' limits.
    for (let i = 0; i < unique.length; i += 500) {
      const chunk = unique.slice(i, i + 500);
      const rows = await this.#db.all<{ slug: string }>(
        `SELECT DISTINCT slug FROM media_links WHERE owner = ? AND slug IN (${chunk.map(() => "?").join(", ")})`,
        [owner, ...chunk],
      );
      for (const r of rows) found.add(r.slug);
    }
    return found;
  }

  /** Links generated artwork to an item; positions already taken (a concurrent writer, an upload) stay. */
  async insertLinksIfAbsent(owner: MediaOwner, slug: string, links: MediaLinks, q: Queryable): Promise<void> {
    for (const [role, position, id] of linkRows(links))
      await q.run(
        `INSERT INTO media_links (owner, slug, role, position, asset_id) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (owner, slug, role, position) DO NOTHING`,
        [owner, slug, role, position, id],
      );
  }

  /** Replaces every link of one item in one transaction. */
  async setLinks(owner: MediaOwner, slug: string, links: MediaLinks, q?: Queryable): Promise<void> {
    const write = async (tx: Queryable) => {
      await tx.run("DELETE FROM media_links WHERE owner = ? AND slug = ?", [owner, slug]);
      for (const [role, position, id] of linkRows(links))
        await tx.run(
          "INSERT INTO media_links (owner, slug, role, position, asset_id) VALUES (?, ?, ?, ?, ?)",
          [owner, slug, role, position, id],
        );
    };
    if (q !== undefined) await write(q);
    else await this.#db.transaction(write);
  }
}

/** One item's links as media_links rows: role, position, asset id. */
function linkRows(links: MediaLinks): [MediaRole, number, string][] {
  const rows: [MediaRole, number, string][] = [];
  if (links.logo !== null) rows.push(["logo", 0, links.logo]);
  if (links.cover !== null) rows.push(["cover", 0, links.cover]);
  links.screenshots.forEach((id, i) => {
    rows.push(["screenshot", i, id]);
  });
  return rows;
}
