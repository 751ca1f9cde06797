import type {
  TgAppInput,
  TgAppItemFile,
  TgAppTextFile,
  TgArticleItemFile,
  TgArticleTextFile,
} from "@meridian/contracts";
import type { Db, SqlValue } from "../../platform/db/types.ts";
import { TgAppsAdminRepo } from "./admin-repo.ts";
import { recountRatings } from "./repo.ts";
import { sanitizeAppInput, sanitizeArticleInput } from "./service.ts";

const DAY_MS = 86_400_000;

/** Deterministic pseudo-random numbers per key, so every fresh database gets the same demo. */
function rand(key: string): number {
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  return (h >>> 0) / 4294967296;
}

export interface SeedFile<I, T> {
  slug: string;
  item: I;
  texts: Partial<Record<string, T>> & { en: T };
}

function others<T>(texts: Partial<Record<string, T>>): [string, T][] {
  return Object.entries(texts).filter((e): e is [string, T] => e[0] !== "en" && e[1] !== undefined);
}

function appInput({ slug, item, texts }: SeedFile<TgAppItemFile, TgAppTextFile>): TgAppInput {
  return {
    slug,
    name: item.name,
    category: item.category,
    editorsChoice: item.editorsChoice,
    botUsername: item.botUsername,
    startParam: "meridian",
    website: item.website,
    iconUrl: "",
    screenshots: [],
    languages: item.languages,
    platforms: item.platforms,
    tokenLaunch: item.tokenLaunch,
    ...texts.en,
    published: true,
    translations: Object.fromEntries(others(texts)),
  };
}

async function insertMany(db: Db, head: string, rows: SqlValue[][], tail: string): Promise<void> {
  for (let i = 0; i < rows.length; i += 100) {
    const chunk = rows.slice(i, i + 100);
    const width = chunk[0]?.length ?? 0;
    const values = chunk.map(() => `(${Array.from({ length: width }, () => "?").join(", ")})`).join(", ");
    await db.run(`${head} VALUES ${values} ${tail}`, chunk.flat());
  }
}

/**
 * Demo apps and articles from the content files, with ratings (from synthetic `seed:`
 * users) and 30 days of visits in proportion to each app's popularity, so the Hot ranking
 * follows it. Idempotent: existing apps and articles are left alone, ratings and visits
 * upserted.
 */
export async function seedTgApps(
  db: Db,
  files: {
    apps: SeedFile<TgAppItemFile, TgAppTextFile>[];
    articles: SeedFile<TgArticleItemFile, TgArticleTextFile>[];
  },
  now = Date.now(),
): Promise<void> {
  const admin = new TgAppsAdminRepo(db);
  const today = Math.floor(now / DAY_MS);
  const ids = new Map<string, number>();
  for (const app of files.apps) {
    const id = await admin.saveApp(sanitizeAppInput(appInput(app)), now, {
      onlyIfAbsent: true,
      listedAt: now - app.item.listedDaysAgo * DAY_MS,
    });
    if (id !== undefined) ids.set(app.slug, id);
  }

  for (const { slug, item, texts } of files.articles) {
    await admin.saveArticle(
      sanitizeArticleInput({
        slug,
        appSlug: item.app,
        ...texts.en,
        publishedAt: now - item.daysAgo * DAY_MS - Math.floor(rand(slug) * 12) * 3_600_000,
        published: true,
        translations: Object.fromEntries(others(texts)),
      }),
      now,
      { onlyIfAbsent: true },
    );
  }

  const ratings: SqlValue[][] = [];
  const visits: SqlValue[][] = [];
  for (const [slug, id] of ids) {
    const popularity = files.apps.find((a) => a.slug === slug)?.item.popularity ?? 0;
    const weight = (popularity / 100) ** 2 * (0.9 + rand(`${slug}:pop`) * 0.2);
    const raters = Math.floor(weight * 60);
    const quality = 3 + rand(`${slug}:q`) * 2;
    for (let u = 0; u < raters; u++) {
      const stars = Math.max(1, Math.min(5, Math.round(quality + (rand(`${slug}:${u}:s`) - 0.5) * 2.2)));
      const at = now - Math.floor(rand(`${slug}:${u}:t`) * 20 * DAY_MS);
      ratings.push([id, `seed:${u}`, stars, at, at]);
    }
    for (let d = 0; d < 30; d++) {
      const count = Math.floor(weight * 80 * (0.5 + rand(`${slug}:${d}:v`)));
      if (count > 0) visits.push([id, today - d, count]);
    }
  }
  await insertMany(
    db,
    "INSERT INTO tg_app_ratings (app_id, user_id, stars, created_at, updated_at)",
    ratings,
    "ON CONFLICT (app_id, user_id) DO NOTHING",
  );
  await insertMany(
    db,
    "INSERT INTO tg_app_visits (app_id, day, visits)",
    visits,
    "ON CONFLICT (app_id, day) DO NOTHING",
  );
  for (const id of ids.values()) await db.transaction((tx) => recountRatings(tx, id));
}
