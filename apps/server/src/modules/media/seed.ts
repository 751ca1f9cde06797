import type { MediaOwner, MediaRole } from "@meridian/contracts";
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

/**
 * Demo artwork for every airdrop and app already in the database: a logo each, a cover
 * per airdrop, three screenshots per app. Only the SVG sources are written here; the
 * pipeline renders each on its first request (service.file). An item that already has
 * images (an administrator's upload) keeps them.
 */
export async function seedMedia(db: Db, now = Date.now()): Promise<{ assets: number }> {
  const repo = new MediaRepo(db);
  const airdrops = await db.all<{ slug: string; name: string; ticker: string; chain: string }>(
    "SELECT slug, name, ticker, chain FROM airdrops ORDER BY id",
  );
  const apps = await db.all<{ slug: string; name: string; category: number }>(
    "SELECT slug, name, category FROM tg_apps ORDER BY id",
  );
  let assets = 0;
  await db.transaction(async (tx) => {
    const linked = async (owner: MediaOwner, slug: string) =>
      (await tx.get("SELECT 1 AS one FROM media_links WHERE owner = ? AND slug = ?", [owner, slug])) !==
      undefined;
    for (const a of airdrops) {
      if (await linked("airdrop", a.slug)) continue;
      const logo = generated(logoSvg(a.slug, a.name, a.chain), "logo");
      const cover = generated(coverSvg(a.slug, a.name, a.ticker, a.chain), "cover");
      for (const asset of [logo, cover]) await repo.insertAsset(asset, now, tx);
      await repo.setLinks("airdrop", a.slug, { logo: logo.id, cover: cover.id, screenshots: [] }, tx);
      assets += 2;
    }
    for (const app of apps) {
      if (await linked("app", app.slug)) continue;
      const logo = generated(logoSvg(app.slug, app.name), "logo");
      const shots = screenshotSvgs(app.slug, app.name, Number(app.category)).map((svg) =>
        generated(svg, "screenshot"),
      );
      for (const asset of [logo, ...shots]) await repo.insertAsset(asset, now, tx);
      await repo.setLinks(
        "app",
        app.slug,
        { logo: logo.id, cover: null, screenshots: shots.map((s) => s.id) },
        tx,
      );
      assets += 1 + shots.length;
    }
  });
  return { assets };
}
