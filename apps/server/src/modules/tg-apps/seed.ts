import type { TgAppInput, TgAppPlatform } from "@meridian/contracts";
import type { Db, SqlValue } from "../../platform/db/types.ts";
import { TgAppsAdminRepo } from "./admin-repo.ts";
import { recountRatings } from "./repo.ts";
import { RECENT_DAYS, SEED_APPS, SEED_TRANSLATIONS, type SeedApp } from "./seed-apps.ts";
import { SEED_ARTICLES } from "./seed-articles.ts";
import { sanitizeAppInput, sanitizeArticleInput } from "./service.ts";

const DAY_MS = 86_400_000;
const PLATFORM_CODES: Record<string, TgAppPlatform> = { i: "ios", a: "android", d: "desktop", w: "web" };

/** Deterministic pseudo-random numbers per key, so every fresh database gets the same demo. */
function rand(key: string): number {
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  return (h >>> 0) / 4294967296;
}

const CATEGORY_WORDS: Record<number, string> = {
  1: "It takes part in The Open League, the TON programme that rewards projects and their users for on-chain activity.",
  2: "Games run in the Telegram mini app window, so progress follows your account across phone and desktop.",
  3: "Web3 tools on TON sign transactions in your own wallet through TON Connect; nothing moves without your confirmation.",
  4: "Management bots need admin rights in your group or channel; grant only the permissions the features you use require.",
  5: "Utilities work inside the chat: send the bot a message or use it inline by typing its name in any conversation.",
  6: "Play-to-earn rewards depend on the project; points are not money, and token launches are decided by the team.",
  7: "Social apps show your Telegram name and photo to other people you match or talk with; check the privacy settings.",
};

function appInput([
  slug,
  name,
  category,
  bot,
  website,
  token,
  pick,
  platforms,
  languages,
  short,
  about,
]: SeedApp): TgAppInput {
  const translations: TgAppInput["translations"] = {};
  for (const [locale, text] of Object.entries(SEED_TRANSLATIONS[slug] ?? {}))
    translations[locale] = { shortDescription: text };
  return {
    slug,
    name,
    category,
    editorsChoice: pick,
    botUsername: bot,
    startParam: "meridian",
    website,
    iconUrl: "",
    screenshots: [],
    languages: languages.split(","),
    platforms: [...platforms]
      .map((c) => PLATFORM_CODES[c])
      .filter((p): p is TgAppPlatform => p !== undefined),
    tokenLaunch: token,
    shortDescription: short,
    longDescription: `<p>${about}</p><p>${CATEGORY_WORDS[category] ?? ""}</p><h3>Getting started</h3><ol><li>Press Open to start @${bot} in Telegram.</li><li>Read what the bot asks for before you grant access or connect a wallet.</li><li>Come back here to rate it and help others choose.</li></ol>`,
    published: true,
    translations,
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
 * Demo apps, articles, ratings (from synthetic `seed:` users) and 30 days of visits.
 * Idempotent: existing apps and articles are left alone, ratings and visits upserted.
 */
export async function seedTgApps(db: Db, now = Date.now()): Promise<void> {
  const admin = new TgAppsAdminRepo(db);
  const today = Math.floor(now / DAY_MS);
  const ids = new Map<string, number>();
  for (const [index, app] of SEED_APPS.entries()) {
    const slug = app[0];
    const daysAgo = RECENT_DAYS[slug] ?? 40 + Math.floor(index * 9 + rand(`${slug}:age`) * 8);
    const id = await admin.saveApp(sanitizeAppInput(appInput(app)), now, {
      onlyIfAbsent: true,
      listedAt: now - daysAgo * DAY_MS,
    });
    if (id !== undefined) ids.set(slug, id);
  }

  for (const [slug, app, daysAgo, title, summary, sections] of SEED_ARTICLES) {
    const body = sections.map(([h, p]) => `<h2>${h}</h2><p>${p}</p>`).join("");
    await admin.saveArticle(
      sanitizeArticleInput({
        slug,
        appSlug: app,
        title,
        summary,
        body,
        publishedAt: now - daysAgo * DAY_MS - Math.floor(rand(slug) * 12) * 3_600_000,
        published: true,
        translations: {},
      }),
      now,
      { onlyIfAbsent: true },
    );
  }

  // Popularity: editor's picks and the big names draw more raters and visits.
  const ratings: SqlValue[][] = [];
  const visits: SqlValue[][] = [];
  for (const [slug, id] of ids) {
    const app = SEED_APPS.find((a) => a[0] === slug);
    const weight = (app?.[6] ? 2 : 1) * (0.3 + rand(`${slug}:pop`));
    const raters = Math.floor(weight * 30);
    const quality = 3 + rand(`${slug}:q`) * 2;
    for (let u = 0; u < raters; u++) {
      const stars = Math.max(1, Math.min(5, Math.round(quality + (rand(`${slug}:${u}:s`) - 0.5) * 2.2)));
      const at = now - Math.floor(rand(`${slug}:${u}:t`) * 20 * DAY_MS);
      ratings.push([id, `seed:${u}`, stars, at, at]);
    }
    for (let d = 0; d < 30; d++) {
      const count = Math.floor(weight * 40 * rand(`${slug}:${d}:v`));
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
