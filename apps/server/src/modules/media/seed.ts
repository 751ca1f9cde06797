import type { MediaLinks, MediaRole } from "@meridian/contracts";
import type { Db } from "../../platform/db/types.ts";
import { coverSvg, logoSvg } from "./artwork/logo.ts";
import { screenshotSvgs } from "./artwork/screens.ts";
import { assetIdOf, widthsFor } from "./pipeline.ts";
import { MediaRepo } from "./repo.ts";

/** Nominal size of each generated SVG (its width and height attributes). */
const SIZE: Record<MediaRole, { width: number; height: number }> = {
  logo: { width: 256, height: 256 },
  cover: { width: 1600, height: 900 },
  screenshot: { width: 720, height: 1280 },
};

function generated(svg: string, role: MediaRole) {
  const { width, height } = SIZE[role];
  const widths = widthsFor(role, width);
  return {
    id: assetIdOf(Buffer.from(svg, "utf8"), role),
    role,
    width,
    height,
    widths,
    heights: widths.map((w) => Math.round((w * height) / width)),
    bytes: 0,
    sourceSvg: svg,
  };
}

/** What the generated artwork of an item is drawn from. */
/**
 * Where the seeder reads the items it draws: each owner's read (the airdrops and apps
 * modules'), passed by the module list (`modules/index.ts`).
 */
export interface ArtworkSubjects {
  airdrops: (db: Db) => Promise<readonly { slug: string; name: string; ticker: string; chain: string }[]>;
  apps: (db: Db) => Promise<readonly { slug: string; name: string; category: number }[]>;
}

export type ArtworkSource =
  | { owner: "airdrop"; slug: string; name: string; ticker: string; chain: string }
  | { owner: "app"; slug: string; name: string; category: number };

/** The generated images of one item: the assets to register and the links to them. */
export function generatedSet(item: ArtworkSource): {
  assets: ReturnType<typeof generated>[];
  links: MediaLinks;
} {
  if (item.owner === "airdrop") {
    const logo = generated(logoSvg(item.slug, item.name, item.chain), "logo");
    const cover = generated(coverSvg(item.slug, item.name, item.ticker, item.chain), "cover");
    return { assets: [logo, cover], links: { logo: logo.id, cover: cover.id, screenshots: [] } };
  }
  const logo = generated(logoSvg(item.slug, item.name), "logo");
  const shots = screenshotSvgs(item.slug, item.name, item.category).map((svg) =>
    generated(svg, "screenshot"),
  );
  return {
    assets: [logo, ...shots],
    links: { logo: logo.id, cover: null, screenshots: shots.map((s) => s.id) },
  };
}

/**
 * Registers generated artwork for the items that have no images at all. Only SVG sources
 * are written; the pipeline renders each on its first request (service.file). Safe to
 * run concurrently: every insert is ON CONFLICT DO NOTHING.
 */
export async function registerGenerated(
  db: Db,
  items: readonly ArtworkSource[],
  now = Date.now(),
): Promise<number> {
  if (items.length === 0) return 0;
  const repo = new MediaRepo(db);
  let assets = 0;
  await db.transaction(async (tx) => {
    for (const item of items) {
      const set = generatedSet(item);
      for (const asset of set.assets) await repo.insertAsset(asset, now, tx);
      await repo.insertLinksIfAbsent(item.owner, item.slug, set.links, tx);
      assets += set.assets.length;
    }
  });
  return assets;
}

/**
 * Demo artwork for every airdrop and app already in the database: a logo each, a cover
 * per airdrop, five screenshots per app. An item that already has images (an
 * administrator's upload) keeps them.
 */
export async function seedMedia(
  db: Db,
  subjects: ArtworkSubjects,
  now = Date.now(),
): Promise<{ assets: number }> {
  const repo = new MediaRepo(db);
  const airdrops = await subjects.airdrops(db);
  const apps = await subjects.apps(db);
  const withImages = {
    airdrop: await repo.slugsWithLinks(
      "airdrop",
      airdrops.map((a) => a.slug),
    ),
    app: await repo.slugsWithLinks(
      "app",
      apps.map((a) => a.slug),
    ),
  };
  const items: ArtworkSource[] = [
    ...airdrops
      .filter((a) => !withImages.airdrop.has(a.slug))
      .map((a) => ({ owner: "airdrop" as const, ...a })),
    ...apps
      .filter((a) => !withImages.app.has(a.slug))
      .map((a) => ({ owner: "app" as const, slug: a.slug, name: a.name, category: Number(a.category) })),
  ];
  return { assets: await registerGenerated(db, items, now) };
}
