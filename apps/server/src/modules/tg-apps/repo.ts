import {
  TG_APP_RANKING,
  TG_APP_TAGS,
  type TgAppPlatform,
  type TgAppTab,
  type TgAppTag,
  tgCategoryKey,
} from "@meridian/contracts";
import { searchIds } from "../../platform/db/fulltext.ts";
import type { Db, Dialect, Queryable, SqlValue } from "../../platform/db/types.ts";
import { readCurrentHtml, readOneCurrentHtml, type StoredHtml } from "../../platform/stored-html.ts";

const DAY_MS = 86_400_000;

/** Visits of one app in the trending and hot windows. */
export interface VisitCounts {
  v7: number;
  v30: number;
}

/**
 * Where visits come from: per app slug, or undefined to use the module's own counter
 * (`tg_app_visits`). See `trackedVisits` in index.ts.
 */
export type VisitSource = () => Promise<ReadonlyMap<string, VisitCounts> | undefined>;

/** Locales whose texts overlay English, strongest first (the locale, then its content base). */
export type LocaleChain = readonly [string, string];

/** An app row with its derived ranking, English text overlaid by the locale chain. */
export interface AppRecord {
  id: number;
  slug: string;
  name: string;
  category: number;
  editorsChoice: boolean;
  botUsername: string;
  startParam: string;
  website: string;
  iconUrl: string;
  screenshots: string[];
  languages: string[];
  platforms: TgAppPlatform[];
  tokenLaunch: boolean;
  shortDescription: string;
  /** The language `shortDescription` is in: the first of the chain the app is written in, else "en". */
  textLocale: string;
  longDescription: string;
  ratingCount: number;
  ratingSum: number;
  published: boolean;
  listedAt: number;
  updatedAt: number;
  hot: boolean;
  isNew: boolean;
  trendScore: number;
  hotScore: number;
}

export interface ArticleRecord {
  id: number;
  slug: string;
  appSlug: string;
  appName: string;
  title: string;
  summary: string;
  /** The language title and summary are in: the first of the chain the article is written in, else "en". */
  textLocale: string;
  body: string;
  published: boolean;
  publishedAt: number;
  updatedAt: number;
}

interface AppRow {
  id: number | string;
  html_version: number | string | null;
  slug: string;
  name: string;
  category: number | string;
  editors_choice: number | string;
  bot_username: string;
  start_param: string;
  website: string;
  icon_url: string;
  screenshots_json: string;
  languages: string;
  platforms: string;
  token_launch: number | string;
  short_description: string;
  /** Absent from rows read without the locale overlay (those are English). */
  text_locale?: string | null;
  long_description: string;
  rating_count: number | string;
  rating_sum: number | string;
  published: number | string;
  listed_at: number | string;
  updated_at: number | string;
  hot_rank: number | string | null;
  new_rank: number | string;
  trend_score: number | string;
  hot_score: number | string;
}

interface ArticleRow {
  id: number | string;
  html_version: number | string | null;
  slug: string;
  app_slug: string;
  app_name: string;
  title: string;
  summary: string;
  /** Absent from rows read without the locale overlay (those are English). */
  text_locale?: string | null;
  body: string;
  published: number | string;
  published_at: number | string;
  updated_at: number | string;
}

/** `",a,b,"` <-> `["a", "b"]`: one LIKE finds a value on both databases. */
export function wrapList(values: readonly string[]): string {
  return values.length === 0 ? "" : `,${values.join(",")},`;
}
function unwrapList(text: string): string[] {
  return text.split(",").filter((s) => s !== "");
}

function parseJsonList(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

function toApp(row: AppRow): AppRecord {
  const hotRank = row.hot_rank === null ? null : Number(row.hot_rank);
  return {
    id: Number(row.id),
    slug: row.slug,
    name: row.name,
    category: Number(row.category),
    editorsChoice: Number(row.editors_choice) === 1,
    botUsername: row.bot_username,
    startParam: row.start_param,
    website: row.website,
    iconUrl: row.icon_url,
    screenshots: parseJsonList(row.screenshots_json),
    languages: unwrapList(row.languages),
    platforms: unwrapList(row.platforms) as TgAppPlatform[],
    tokenLaunch: Number(row.token_launch) === 1,
    shortDescription: row.short_description,
    textLocale: row.text_locale ?? "en",
    longDescription: row.long_description,
    ratingCount: Number(row.rating_count),
    ratingSum: Number(row.rating_sum),
    published: Number(row.published) === 1,
    listedAt: Number(row.listed_at),
    updatedAt: Number(row.updated_at),
    hot: hotRank !== null && hotRank <= TG_APP_RANKING.HOT_COUNT,
    isNew: Number(row.new_rank) <= TG_APP_RANKING.NEW_COUNT,
    trendScore: Number(row.trend_score),
    hotScore: Number(row.hot_score),
  };
}

function toArticle(row: ArticleRow): ArticleRecord {
  return {
    id: Number(row.id),
    slug: row.slug,
    appSlug: row.app_slug,
    appName: row.app_name,
    title: row.title,
    summary: row.summary,
    textLocale: row.text_locale ?? "en",
    body: row.body,
    published: Number(row.published) === 1,
    publishedAt: Number(row.published_at),
    updatedAt: Number(row.updated_at),
  };
}

/** The tags a card shows, in the order of TG_APP_TAGS. */
export function tagsOf(app: Pick<AppRecord, "editorsChoice" | "hot" | "isNew">): TgAppTag[] {
  const on: Record<TgAppTag, boolean> = { "editors-choice": app.editorsChoice, hot: app.hot, new: app.isNew };
  return TG_APP_TAGS.filter((t) => on[t]);
}

export interface ListFilter {
  tab: TgAppTab;
  q: string;
  limit: number;
  offset: number;
}

/** What a tab means in SQL over the ranked rows `k` (see `ranked`). */
function tabClause(tab: TgAppTab): { where: string; order: string; params: SqlValue[] } {
  const byName = "k.name_lower ASC, k.id ASC";
  switch (tab) {
    case "all":
      return { where: "1 = 1", order: `k.editors_choice DESC, k.hot_score DESC, ${byName}`, params: [] };
    case "weekly-trending":
      return {
        where: "k.trend_score > 0",
        order: `k.trend_score DESC, k.rating_count DESC, ${byName}`,
        params: [],
      };
    case "hot":
      return { where: "k.hot_rank <= ?", order: "k.hot_rank ASC", params: [TG_APP_RANKING.HOT_COUNT] };
    case "new":
      return { where: "k.new_rank <= ?", order: "k.new_rank ASC", params: [TG_APP_RANKING.NEW_COUNT] };
    default: {
      const id = categoryIdOf(tab);
      return {
        where: "k.category = ?",
        order: `k.editors_choice DESC, k.hot_score DESC, ${byName}`,
        params: [id],
      };
    }
  }
}

function categoryIdOf(tab: TgAppTab): number {
  for (let id = 1; id <= 7; id++) if (tgCategoryKey(id) === tab) return id;
  throw new Error(`tab ${tab} is not a category`);
}

/** Visits per app from the module's own counter. Parameters: day7, day30. */
const OWN_VISITS = `
  SELECT app_id,
    CAST(SUM(CASE WHEN day >= ? THEN visits ELSE 0 END) AS INTEGER) AS v7,
    CAST(SUM(visits) AS INTEGER) AS v30
  FROM tg_app_visits WHERE day >= ? GROUP BY app_id`;

/** Visits per app handed in as one JSON array of `{slug, v7, v30}`. Parameter: that JSON. */
const GIVEN_VISITS: Record<Dialect, string> = {
  sqlite: `
  SELECT a.id AS app_id, CAST(json_extract(j.value, '$.v7') AS INTEGER) AS v7,
    CAST(json_extract(j.value, '$.v30') AS INTEGER) AS v30
  FROM json_each(?) j JOIN tg_apps a ON a.slug = json_extract(j.value, '$.slug')`,
  postgres: `
  SELECT a.id AS app_id, x.v7, x.v30
  FROM jsonb_to_recordset(?::jsonb) AS x(slug text, v7 integer, v30 integer) JOIN tg_apps a ON a.slug = x.slug`,
};

/**
 * Every published app with its derived scores and ranks (TG_APP_RANKING), texts
 * overlaid by the locale chain. Parameters, in order: the visits CTE's, ratedSince,
 * trend weight, hot weight, locale, base locale, locale, base locale.
 */
const ranked = (visits: string) => `
WITH v AS (${visits}
),
r AS (
  SELECT app_id, CAST(COUNT(*) AS INTEGER) AS r7 FROM tg_app_ratings WHERE updated_at >= ? GROUP BY app_id
),
s AS (
  SELECT a.*,
    CAST(COALESCE(v.v7, 0) + ? * COALESCE(r.r7, 0) AS INTEGER) AS trend_score,
    CAST(COALESCE(v.v30, 0) + ? * a.rating_count AS INTEGER) AS hot_score
  FROM tg_apps a
  LEFT JOIN v ON v.app_id = a.id
  LEFT JOIN r ON r.app_id = a.id
  WHERE a.published = 1
),
k AS (
  SELECT s.*,
    CASE WHEN s.hot_score > 0 THEN
      CAST(ROW_NUMBER() OVER (ORDER BY s.hot_score DESC, s.rating_count DESC, s.name_lower ASC, s.id ASC) AS INTEGER)
    END AS hot_rank,
    CAST(ROW_NUMBER() OVER (ORDER BY s.listed_at DESC, s.id DESC) AS INTEGER) AS new_rank,
    COALESCE(CASE WHEN l1.value IS NOT NULL THEN t1.value END, CASE WHEN l2.value IS NOT NULL THEN t2.value END,
      s.short_description) AS short_text,
    CASE WHEN l1.value IS NOT NULL AND t1.value IS NOT NULL THEN t1.locale
      WHEN l2.value IS NOT NULL AND t2.value IS NOT NULL THEN t2.locale ELSE 'en' END AS text_locale,
    COALESCE(l1.value, l2.value, s.long_description) AS long_text
  FROM s
  LEFT JOIN tg_app_texts t1 ON t1.app_id = s.id AND t1.locale = ? AND t1.field = 'shortDescription'
  LEFT JOIN tg_app_texts t2 ON t2.app_id = s.id AND t2.locale = ? AND t2.field = 'shortDescription'
  LEFT JOIN tg_app_texts l1 ON l1.app_id = s.id AND l1.locale = ? AND l1.field = 'longDescription'
  LEFT JOIN tg_app_texts l2 ON l2.app_id = s.id AND l2.locale = ? AND l2.field = 'longDescription'
)`;

/** Where apps and articles keep HTML: `refreshStoredHtml` at start, `readCurrentHtml` on read. */
export const TG_APPS_STORED_HTML: readonly [StoredHtml, StoredHtml] = [
  {
    table: "tg_apps",
    columns: ["long_description"],
    texts: { table: "tg_app_texts", key: "app_id", fields: ["longDescription"] },
  },
  {
    table: "tg_articles",
    columns: ["body"],
    texts: { table: "tg_article_texts", key: "article_id", fields: ["body"] },
  },
];

const APP_COLUMNS = `k.id, k.slug, k.name, k.category, k.editors_choice, k.bot_username, k.start_param,
  k.website, k.icon_url, k.screenshots_json, k.languages, k.platforms, k.token_launch,
  k.short_text AS short_description, k.text_locale, k.long_text AS long_description, k.rating_count, k.rating_sum,
  k.published, k.listed_at, k.updated_at, k.hot_rank, k.new_rank, k.trend_score, k.hot_score, k.html_version`;

/** Data access of the Apps and Bot Center; SQL written once for SQLite and PostgreSQL. */
export class TgAppsRepo {
  readonly db: Db;
  readonly #now: () => number;
  readonly #visits: VisitSource | undefined;

  constructor(db: Db, now: () => number = Date.now, visits?: VisitSource) {
    this.db = db;
    this.#now = now;
    this.#visits = visits;
  }

  /** The RANKED query head and its parameters, on the visit source's counts or the own counter. */
  async #ranked(locales: LocaleChain): Promise<{ sql: string; params: SqlValue[] }> {
    const now = this.#now();
    const today = Math.floor(now / DAY_MS);
    const given = await this.#visits?.();
    const visits =
      given === undefined
        ? {
            sql: OWN_VISITS,
            params: [today - (TG_APP_RANKING.TRENDING_DAYS - 1), today - (TG_APP_RANKING.HOT_DAYS - 1)],
          }
        : {
            sql: GIVEN_VISITS[this.db.dialect],
            params: [JSON.stringify([...given].map(([slug, c]) => ({ slug, v7: c.v7, v30: c.v30 })))],
          };
    return {
      sql: ranked(visits.sql),
      params: [...visits.params, ...this.#rankedTail(now, locales)],
    };
  }

  #rankedTail(now: number, locales: LocaleChain): SqlValue[] {
    return [
      now - TG_APP_RANKING.TRENDING_DAYS * DAY_MS,
      TG_APP_RANKING.TRENDING_RATING_WEIGHT,
      TG_APP_RANKING.HOT_RATER_WEIGHT,
      locales[0],
      locales[1],
      locales[0],
      locales[1],
    ];
  }

  /**
   * One page of a tab and the tab's total. A search `q` goes through the full-text index
   * (names, bot usernames, category tags, descriptions in the page's language; words as
   * prefixes) and orders by relevance.
   */
  async list(filter: ListFilter, locales: LocaleChain): Promise<{ items: AppRecord[]; total: number }> {
    const tab = tabClause(filter.tab);
    const head = await this.#ranked(locales);
    if (filter.q.trim() !== "") {
      const ranks = await searchIds(this.db, "tg-app", filter.q, locales[1]);
      if (ranks.size === 0) return { items: [], total: 0 };
      const ids = [...ranks.keys()];
      const rows = await this.db.all<AppRow>(
        `${head.sql} SELECT ${APP_COLUMNS} FROM k WHERE ${tab.where} AND k.id IN (${ids.map(() => "?").join(", ")})`,
        [...head.params, ...tab.params, ...ids],
      );
      const items = rows.map(toApp);
      items.sort((a, b) => (ranks.get(a.id) ?? 0) - (ranks.get(b.id) ?? 0) || a.id - b.id);
      return { items: items.slice(filter.offset, filter.offset + filter.limit), total: items.length };
    }
    const params = [...head.params, ...tab.params];
    const [rows, count] = await Promise.all([
      this.db.all<AppRow>(
        `${head.sql} SELECT ${APP_COLUMNS} FROM k WHERE ${tab.where} ORDER BY ${tab.order} LIMIT ? OFFSET ?`,
        [...params, filter.limit, filter.offset],
      ),
      this.db.get<{ n: number | string }>(
        `${head.sql} SELECT CAST(COUNT(*) AS INTEGER) AS n FROM k WHERE ${tab.where}`,
        params,
      ),
    ]);
    return { items: rows.map(toApp), total: Number(count?.n ?? 0) };
  }

  /** A published app by slug, with its ranks. */
  async bySlug(slug: string, locales: LocaleChain): Promise<AppRecord | undefined> {
    const head = await this.#ranked(locales);
    // A row an older sanitiser cleaned (an older instance on a shared database) is cleaned once here.
    const row = await readOneCurrentHtml(this.db, TG_APPS_STORED_HTML[0], () =>
      this.db.get<AppRow>(`${head.sql} SELECT ${APP_COLUMNS} FROM k WHERE k.slug = ?`, [
        ...head.params,
        slug,
      ]),
    );
    return row === undefined ? undefined : toApp(row);
  }

  /** Published apps picked by a rule, for the detail page's rails. */
  async pick(
    rule: { category?: number; excludeIds: readonly number[]; order: "hot" | "rating" | "recent" },
    limit: number,
    locales: LocaleChain,
  ): Promise<AppRecord[]> {
    const conditions: string[] = [];
    const head = await this.#ranked(locales);
    const params: SqlValue[] = [...head.params];
    if (rule.category !== undefined) {
      conditions.push("k.category = ?");
      params.push(rule.category);
    }
    if (rule.excludeIds.length > 0) {
      conditions.push(`k.id NOT IN (${rule.excludeIds.map(() => "?").join(", ")})`);
      params.push(...rule.excludeIds);
    }
    const order =
      rule.order === "hot"
        ? "CASE WHEN k.hot_rank IS NULL THEN 1 ELSE 0 END, k.hot_rank ASC, k.name_lower ASC"
        : rule.order === "rating"
          ? "k.editors_choice DESC, k.rating_count DESC, k.name_lower ASC"
          : "k.listed_at DESC, k.id DESC";
    const where = conditions.length === 0 ? "" : `WHERE ${conditions.join(" AND ")}`;
    const rows = await this.db.all<AppRow>(
      `${head.sql} SELECT ${APP_COLUMNS} FROM k ${where} ORDER BY ${order} LIMIT ?`,
      [...params, limit],
    );
    return rows.map(toApp);
  }

  async countPublished(): Promise<number> {
    const row = await this.db.get<{ n: number | string }>(
      "SELECT CAST(COUNT(*) AS INTEGER) AS n FROM tg_apps WHERE published = 1",
    );
    return Number(row?.n ?? 0);
  }

  async appIdBySlug(slug: string): Promise<number | undefined> {
    const row = await this.db.get<{ id: number | string }>(
      "SELECT id FROM tg_apps WHERE slug = ? AND published = 1",
      [slug],
    );
    return row === undefined ? undefined : Number(row.id);
  }

  /** Counts one detail-page view for today (UTC). */
  async countVisit(appId: number): Promise<void> {
    await this.db.run(
      `INSERT INTO tg_app_visits (app_id, day, visits) VALUES (?, ?, 1)
       ON CONFLICT (app_id, day) DO UPDATE SET visits = tg_app_visits.visits + 1`,
      [appId, Math.floor(this.#now() / DAY_MS)],
    );
  }

  async myRating(appId: number, userId: string): Promise<number | null> {
    const row = await this.db.get<{ stars: number | string }>(
      "SELECT stars FROM tg_app_ratings WHERE app_id = ? AND user_id = ?",
      [appId, userId],
    );
    return row === undefined ? null : Number(row.stars);
  }

  /**
   * Stores a user's stars for an app (a new rating replaces the old) and recomputes the
   * app's aggregate in the same transaction.
   *
   * NOTE: on PostgreSQL the app row is locked first, so concurrent ratings of one app
   * queue there and each recount sees every rating committed before it; a recount from
   * a statement snapshot taken before another rater's commit would lose that rating.
   * SQLite serialises transactions already.
   */
  async rate(
    appId: number,
    userId: string,
    stars: number,
  ): Promise<{ ratingCount: number; ratingSum: number }> {
    return this.db.transaction(async (tx) => {
      if (tx.dialect === "postgres") await tx.run("SELECT id FROM tg_apps WHERE id = ? FOR UPDATE", [appId]);
      const now = this.#now();
      await tx.run(
        `INSERT INTO tg_app_ratings (app_id, user_id, stars, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (app_id, user_id) DO UPDATE SET stars = excluded.stars, updated_at = excluded.updated_at`,
        [appId, userId, stars, now, now],
      );
      return recountRatings(tx, appId);
    });
  }

  async latestArticles(limit: number, locales: LocaleChain, excludeAppId?: number): Promise<ArticleRecord[]> {
    const exclude = excludeAppId === undefined ? "" : "AND r.app_id <> ?";
    const rows = await readCurrentHtml(this.db, TG_APPS_STORED_HTML[1], () =>
      this.db.all<ArticleRow>(
        `${ARTICLE_SELECT} WHERE r.published = 1 AND a.published = 1 ${exclude} ORDER BY r.published_at DESC, r.id DESC LIMIT ?`,
        [...articleLocaleParams(locales), ...(excludeAppId === undefined ? [] : [excludeAppId]), limit],
      ),
    );
    return rows.map(toArticle);
  }

  async articlesOfApp(appId: number, locales: LocaleChain, limit = 50): Promise<ArticleRecord[]> {
    const rows = await readCurrentHtml(this.db, TG_APPS_STORED_HTML[1], () =>
      this.db.all<ArticleRow>(
        `${ARTICLE_SELECT} WHERE r.published = 1 AND r.app_id = ? ORDER BY r.published_at DESC, r.id DESC LIMIT ?`,
        [...articleLocaleParams(locales), appId, limit],
      ),
    );
    return rows.map(toArticle);
  }

  /** Slugs and last change of every published app, for the sitemap. */
  /**
   * The languages each app or article is written in: English plus every locale holding
   * its body (an app's long description, an article's body). Other fields alone do not
   * make a page written in a language.
   */
  async contentLanguages(kind: "app" | "article", ids: readonly number[]): Promise<Map<number, string[]>> {
    const out = new Map<number, string[]>(ids.map((id) => [id, ["en"]]));
    if (ids.length === 0) return out;
    const [table, key, field] =
      kind === "app"
        ? ["tg_app_texts", "app_id", "longDescription"]
        : ["tg_article_texts", "article_id", "body"];
    const rows = await this.db.all<{ id: number | string; locale: string }>(
      `SELECT ${key} AS id, locale FROM ${table} WHERE field = ? AND ${key} IN (${ids.map(() => "?").join(", ")})
       ORDER BY locale`,
      [field, ...ids],
    );
    for (const r of rows) if (r.locale !== "en") out.get(Number(r.id))?.push(r.locale);
    return out;
  }

  /** Published article ids per app slug, for the articles pages' languages. */
  async articleIdsByApp(): Promise<Map<string, number[]>> {
    const rows = await this.db.all<{ slug: string; id: number | string }>(
      `SELECT a.slug, r.id FROM tg_articles r JOIN tg_apps a ON a.id = r.app_id
       WHERE r.published = 1 AND a.published = 1 ORDER BY r.id`,
    );
    const out = new Map<string, number[]>();
    for (const r of rows) out.set(r.slug, [...(out.get(r.slug) ?? []), Number(r.id)]);
    return out;
  }

  async sitemap(): Promise<{ id: number; slug: string; updatedAt: number; articles: number }[]> {
    const rows = await this.db.all<{
      id: number | string;
      slug: string;
      updated_at: number | string;
      articles: number | string;
    }>(
      `SELECT a.id, a.slug, a.updated_at,
        CAST((SELECT COUNT(*) FROM tg_articles r WHERE r.app_id = a.id AND r.published = 1) AS INTEGER) AS articles
       FROM tg_apps a WHERE a.published = 1 ORDER BY a.slug`,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      slug: r.slug,
      updatedAt: Number(r.updated_at),
      articles: Number(r.articles),
    }));
  }
}

/** Recomputes `rating_count`/`rating_sum` of one app from its ratings. */
export async function recountRatings(
  tx: Queryable,
  appId: number,
): Promise<{ ratingCount: number; ratingSum: number }> {
  const agg = await tx.get<{ n: number | string; total: number | string }>(
    "SELECT CAST(COUNT(*) AS INTEGER) AS n, CAST(COALESCE(SUM(stars), 0) AS INTEGER) AS total FROM tg_app_ratings WHERE app_id = ?",
    [appId],
  );
  const ratingCount = Number(agg?.n ?? 0);
  const ratingSum = Number(agg?.total ?? 0);
  await tx.run("UPDATE tg_apps SET rating_count = ?, rating_sum = ? WHERE id = ?", [
    ratingCount,
    ratingSum,
    appId,
  ]);
  return { ratingCount, ratingSum };
}

const ARTICLE_SELECT = `
SELECT r.id, r.slug, a.slug AS app_slug, a.name AS app_name,
  COALESCE(CASE WHEN b1.value IS NOT NULL THEN t1.value END, CASE WHEN b2.value IS NOT NULL THEN t2.value END,
    r.title) AS title,
  COALESCE(CASE WHEN b1.value IS NOT NULL THEN s1.value END, CASE WHEN b2.value IS NOT NULL THEN s2.value END,
    r.summary) AS summary,
  COALESCE(b1.value, b2.value, r.body) AS body,
  CASE WHEN b1.value IS NOT NULL THEN b1.locale WHEN b2.value IS NOT NULL THEN b2.locale ELSE 'en' END AS text_locale,
  r.published, r.published_at, r.updated_at, r.html_version
FROM tg_articles r
JOIN tg_apps a ON a.id = r.app_id
LEFT JOIN tg_article_texts t1 ON t1.article_id = r.id AND t1.locale = ? AND t1.field = 'title'
LEFT JOIN tg_article_texts t2 ON t2.article_id = r.id AND t2.locale = ? AND t2.field = 'title'
LEFT JOIN tg_article_texts s1 ON s1.article_id = r.id AND s1.locale = ? AND s1.field = 'summary'
LEFT JOIN tg_article_texts s2 ON s2.article_id = r.id AND s2.locale = ? AND s2.field = 'summary'
LEFT JOIN tg_article_texts b1 ON b1.article_id = r.id AND b1.locale = ? AND b1.field = 'body'
LEFT JOIN tg_article_texts b2 ON b2.article_id = r.id AND b2.locale = ? AND b2.field = 'body'`;

function articleLocaleParams(locales: LocaleChain): SqlValue[] {
  return [locales[0], locales[1], locales[0], locales[1], locales[0], locales[1]];
}
