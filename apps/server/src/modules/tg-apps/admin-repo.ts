import {
  type TgAdminAppRow as AdminAppRow,
  type TgAdminArticleRow as AdminArticleRow,
  type TgAppInput,
  type TgArticleInput,
  type TgSubmission,
  type TgSubmissionBody,
  tgCategoryKey,
} from "@meridian/contracts";
import { deleteSearchDocs, putSearchDocs, type SearchDoc } from "../../platform/db/fulltext.ts";
import type { Db, Queryable } from "../../platform/db/types.ts";
import { SANITIZER_VERSION } from "../../platform/stored-html.ts";
import { wrapList } from "./repo.ts";

interface SubmissionRow {
  id: number | string;
  name: string;
  bot_username: string;
  website: string;
  category: number | string;
  email: string;
  description: string;
  status: string;
  created_at: number | string;
  app_slug: string | null;
}

function toSubmission(r: SubmissionRow): TgSubmission {
  return {
    id: Number(r.id),
    name: r.name,
    botUsername: r.bot_username,
    website: r.website,
    category: Number(r.category),
    email: r.email,
    description: r.description,
    status: r.status === "approved" || r.status === "rejected" ? r.status : "pending",
    createdAt: Number(r.created_at),
    appSlug: r.app_slug,
  };
}

async function replaceTexts(
  tx: Queryable,
  table: "tg_app_texts" | "tg_article_texts",
  idColumn: "app_id" | "article_id",
  id: number,
  translations: Record<string, Record<string, string | undefined>>,
): Promise<void> {
  await tx.run(`DELETE FROM ${table} WHERE ${idColumn} = ?`, [id]);
  for (const [locale, fields] of Object.entries(translations)) {
    for (const [field, value] of Object.entries(fields)) {
      if (value === undefined || value === "") continue;
      await tx.run(`INSERT INTO ${table} (${idColumn}, locale, field, value) VALUES (?, ?, ?, ?)`, [
        id,
        locale,
        field,
        value,
      ]);
    }
  }
}

/** Writes of the admin area, the seed and submission review. Text arrives sanitised. */
export class TgAppsAdminRepo {
  readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  /**
   * Creates or replaces an app by slug (`onlyIfAbsent` leaves an existing one alone: the
   * seed). Returns the app id, or undefined when it existed and was left alone.
   */
  async saveApp(
    input: TgAppInput,
    now: number,
    options: { onlyIfAbsent?: boolean; listedAt?: number; tx?: Queryable } = {},
  ): Promise<number | undefined> {
    const work = async (tx: Queryable) => {
      const values = [
        input.slug,
        input.name,
        input.name.toLowerCase(),
        input.category,
        input.editorsChoice ? 1 : 0,
        input.botUsername,
        input.startParam,
        input.website,
        input.iconUrl,
        JSON.stringify(input.screenshots),
        wrapList(input.languages),
        wrapList(input.platforms),
        input.tokenLaunch ? 1 : 0,
        input.shortDescription,
        input.longDescription,
        input.published ? 1 : 0,
        options.listedAt ?? now,
        now,
        now,
        SANITIZER_VERSION,
      ];
      const conflict = options.onlyIfAbsent
        ? "DO NOTHING"
        : `DO UPDATE SET name = excluded.name, name_lower = excluded.name_lower, category = excluded.category,
            editors_choice = excluded.editors_choice, bot_username = excluded.bot_username,
            start_param = excluded.start_param, website = excluded.website, icon_url = excluded.icon_url,
            screenshots_json = excluded.screenshots_json, languages = excluded.languages,
            platforms = excluded.platforms, token_launch = excluded.token_launch,
            short_description = excluded.short_description, long_description = excluded.long_description,
            published = excluded.published, updated_at = excluded.updated_at, html_version = excluded.html_version`;
      const row = await tx.get<{ id: number | string }>(
        `INSERT INTO tg_apps (slug, name, name_lower, category, editors_choice, bot_username, start_param, website,
          icon_url, screenshots_json, languages, platforms, token_launch, short_description, long_description,
          published, listed_at, created_at, updated_at, html_version)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (slug) ${conflict} RETURNING id`,
        values,
      );
      if (row === undefined) return undefined;
      const id = Number(row.id);
      await replaceTexts(tx, "tg_app_texts", "app_id", id, input.translations);
      await indexApp(tx, id);
      return id;
    };
    return options.tx ? work(options.tx) : this.db.transaction(work);
  }

  async listApps(): Promise<AdminAppRow[]> {
    const rows = await this.db.all<{
      slug: string;
      name: string;
      category: number | string;
      published: number | string;
      rating_count: number | string;
      updated_at: number | string;
    }>("SELECT slug, name, category, published, rating_count, updated_at FROM tg_apps ORDER BY name_lower");
    const texts = await this.db.all<{ slug: string; locale: string }>(
      `SELECT a.slug, t.locale FROM tg_app_texts t JOIN tg_apps a ON a.id = t.app_id
       WHERE t.field = 'longDescription' ORDER BY t.locale`,
    );
    const written = new Map<string, string[]>();
    for (const t of texts) written.set(t.slug, [...(written.get(t.slug) ?? []), t.locale]);
    return rows.map((r) => ({
      slug: r.slug,
      name: r.name,
      category: Number(r.category),
      published: Number(r.published) === 1,
      ratingCount: Number(r.rating_count),
      updatedAt: Number(r.updated_at),
      contentLanguages: ["en", ...(written.get(r.slug) ?? []).filter((l) => l !== "en")],
    }));
  }

  /** The stored app as the admin form edits it (English text plus translations). */
  async appInput(slug: string): Promise<TgAppInput | undefined> {
    const r = await this.db.get<{
      id: number | string;
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
      long_description: string;
      published: number | string;
    }>("SELECT * FROM tg_apps WHERE slug = ?", [slug]);
    if (r === undefined) return undefined;
    const texts = await this.db.all<{ locale: string; field: string; value: string }>(
      "SELECT locale, field, value FROM tg_app_texts WHERE app_id = ?",
      [Number(r.id)],
    );
    const translations: TgAppInput["translations"] = {};
    for (const t of texts) {
      const entry = translations[t.locale] ?? {};
      if (t.field === "shortDescription" || t.field === "longDescription") entry[t.field] = t.value;
      translations[t.locale] = entry;
    }
    const list = (s: string) => s.split(",").filter((x) => x !== "");
    return {
      slug: r.slug,
      name: r.name,
      category: Number(r.category),
      editorsChoice: Number(r.editors_choice) === 1,
      botUsername: r.bot_username,
      startParam: r.start_param,
      website: r.website,
      iconUrl: r.icon_url,
      screenshots: JSON.parse(r.screenshots_json) as string[],
      languages: list(r.languages),
      platforms: list(r.platforms) as TgAppInput["platforms"],
      tokenLaunch: Number(r.token_launch) === 1,
      shortDescription: r.short_description,
      longDescription: r.long_description,
      published: Number(r.published) === 1,
      translations,
    };
  }

  async deleteApp(slug: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const row = await tx.get<{ id: number | string }>("SELECT id FROM tg_apps WHERE slug = ?", [slug]);
      if (row === undefined) return false;
      const id = Number(row.id);
      await deleteSearchDocs(tx, "tg-app", id);
      // Explicit child deletes: SQLite enforces ON DELETE CASCADE only with foreign_keys on.
      await tx.run(
        "DELETE FROM tg_article_texts WHERE article_id IN (SELECT id FROM tg_articles WHERE app_id = ?)",
        [id],
      );
      for (const table of ["tg_articles", "tg_app_texts", "tg_app_ratings", "tg_app_visits"]) {
        await tx.run(`DELETE FROM ${table} WHERE app_id = ?`, [id]);
      }
      await tx.run("DELETE FROM tg_apps WHERE id = ?", [id]);
      return true;
    });
  }

  /** Creates or replaces an article by slug; undefined when its app does not exist (or it existed and `onlyIfAbsent`). */
  async saveArticle(
    input: TgArticleInput,
    now: number,
    options: { onlyIfAbsent?: boolean } = {},
  ): Promise<number | undefined> {
    return this.db.transaction(async (tx) => {
      const app = await tx.get<{ id: number | string }>("SELECT id FROM tg_apps WHERE slug = ?", [
        input.appSlug,
      ]);
      if (app === undefined) return undefined;
      const conflict = options.onlyIfAbsent
        ? "DO NOTHING"
        : `DO UPDATE SET app_id = excluded.app_id, title = excluded.title, summary = excluded.summary,
            body = excluded.body, published = excluded.published, published_at = excluded.published_at,
            updated_at = excluded.updated_at, html_version = excluded.html_version`;
      const row = await tx.get<{ id: number | string }>(
        `INSERT INTO tg_articles (slug, app_id, title, summary, body, published, published_at, created_at, updated_at,
          html_version)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (slug) ${conflict} RETURNING id`,
        [
          input.slug,
          Number(app.id),
          input.title,
          input.summary,
          input.body,
          input.published ? 1 : 0,
          input.publishedAt,
          now,
          now,
          SANITIZER_VERSION,
        ],
      );
      if (row === undefined) return undefined;
      const id = Number(row.id);
      await replaceTexts(tx, "tg_article_texts", "article_id", id, input.translations);
      return id;
    });
  }

  async listArticles(): Promise<AdminArticleRow[]> {
    const rows = await this.db.all<{
      slug: string;
      app_slug: string;
      title: string;
      published: number | string;
      published_at: number | string;
    }>(
      `SELECT r.slug, a.slug AS app_slug, r.title, r.published, r.published_at
       FROM tg_articles r JOIN tg_apps a ON a.id = r.app_id ORDER BY r.published_at DESC, r.id DESC`,
    );
    const texts = await this.db.all<{ slug: string; locale: string }>(
      `SELECT r.slug, t.locale FROM tg_article_texts t JOIN tg_articles r ON r.id = t.article_id
       WHERE t.field = 'body' ORDER BY t.locale`,
    );
    const written = new Map<string, string[]>();
    for (const t of texts) written.set(t.slug, [...(written.get(t.slug) ?? []), t.locale]);
    return rows.map((r) => ({
      slug: r.slug,
      appSlug: r.app_slug,
      title: r.title,
      published: Number(r.published) === 1,
      publishedAt: Number(r.published_at),
      contentLanguages: ["en", ...(written.get(r.slug) ?? []).filter((l) => l !== "en")],
    }));
  }

  /** The stored article as the admin form edits it (English text plus translations). */
  async articleInput(slug: string): Promise<TgArticleInput | undefined> {
    const r = await this.db.get<{
      id: number | string;
      slug: string;
      app_slug: string;
      title: string;
      summary: string;
      body: string;
      published: number | string;
      published_at: number | string;
    }>(
      `SELECT r.id, r.slug, a.slug AS app_slug, r.title, r.summary, r.body, r.published, r.published_at
       FROM tg_articles r JOIN tg_apps a ON a.id = r.app_id WHERE r.slug = ?`,
      [slug],
    );
    if (r === undefined) return undefined;
    const texts = await this.db.all<{ locale: string; field: string; value: string }>(
      "SELECT locale, field, value FROM tg_article_texts WHERE article_id = ?",
      [Number(r.id)],
    );
    const translations: TgArticleInput["translations"] = {};
    for (const t of texts) {
      const entry = translations[t.locale] ?? {};
      if (t.field === "title" || t.field === "summary" || t.field === "body") entry[t.field] = t.value;
      translations[t.locale] = entry;
    }
    return {
      slug: r.slug,
      appSlug: r.app_slug,
      title: r.title,
      summary: r.summary,
      body: r.body,
      publishedAt: Number(r.published_at),
      published: Number(r.published) === 1,
      translations,
    };
  }

  async deleteArticle(slug: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.run(
        "DELETE FROM tg_article_texts WHERE article_id IN (SELECT id FROM tg_articles WHERE slug = ?)",
        [slug],
      );
      return (await tx.run("DELETE FROM tg_articles WHERE slug = ?", [slug])).changes > 0;
    });
  }

  async insertSubmission(body: TgSubmissionBody, userId: string | null, now: number): Promise<number> {
    const row = await this.db.get<{ id: number | string }>(
      `INSERT INTO tg_app_submissions (name, bot_username, website, category, email, description, user_id, status, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?) RETURNING id`,
      [
        body.name,
        body.botUsername.replace(/^@/, ""),
        body.website,
        body.category,
        body.email,
        body.description,
        userId,
        now,
      ],
    );
    if (row === undefined) throw new Error("submission insert returned nothing");
    return Number(row.id);
  }

  async listSubmissions(): Promise<TgSubmission[]> {
    const rows = await this.db.all<SubmissionRow>(
      `SELECT s.id, s.name, s.bot_username, s.website, s.category, s.email, s.description, s.status, s.created_at,
        a.slug AS app_slug
       FROM tg_app_submissions s LEFT JOIN tg_apps a ON a.id = s.app_id
       ORDER BY CASE WHEN s.status = 'pending' THEN 0 ELSE 1 END, s.created_at DESC LIMIT 200`,
    );
    return rows.map(toSubmission);
  }

  /**
   * Marks a pending submission reviewed, in `tx`; false when it is not pending (already
   * reviewed by someone else), so approval creates at most one app.
   */
  async closeSubmission(
    tx: Queryable,
    id: number,
    status: "approved" | "rejected",
    appId: number | null,
    now: number,
  ): Promise<boolean> {
    const res = await tx.run(
      "UPDATE tg_app_submissions SET status = ?, app_id = ?, reviewed_at = ? WHERE id = ? AND status = 'pending'",
      [status, appId, now, id],
    );
    return res.changes > 0;
  }

  async submission(tx: Queryable, id: number): Promise<TgSubmission | undefined> {
    const row = await tx.get<SubmissionRow>(
      `SELECT s.id, s.name, s.bot_username, s.website, s.category, s.email, s.description, s.status, s.created_at,
        NULL AS app_slug FROM tg_app_submissions s WHERE s.id = ?`,
      [id],
    );
    return row === undefined ? undefined : toSubmission(row);
  }
}

/**
 * Rewrites the search index of one app: English and every language its long description
 * is written in, with name, bot username, category and both descriptions.
 */
export async function indexApp(tx: Queryable, id: number): Promise<void> {
  const row = await tx.get<{
    name: string;
    bot_username: string;
    category: number | string;
    editors_choice: number | string;
    short_description: string;
    long_description: string;
  }>(
    "SELECT name, bot_username, category, editors_choice, short_description, long_description FROM tg_apps WHERE id = ?",
    [id],
  );
  if (!row) return;
  const category = (tgCategoryKey(Number(row.category)) ?? "").replace(/-/g, " ");
  const tags = `${category}${Number(row.editors_choice) === 1 ? " editors choice" : ""}`;
  const docs: SearchDoc[] = [
    {
      locale: "en",
      name: row.name,
      ticker: row.bot_username,
      tags,
      body: `${row.short_description} ${row.long_description}`,
    },
  ];
  const texts = await tx.all<{ locale: string; field: string; value: string }>(
    "SELECT locale, field, value FROM tg_app_texts WHERE app_id = ?",
    [id],
  );
  const byLocale = new Map<string, Map<string, string>>();
  for (const t of texts) byLocale.set(t.locale, (byLocale.get(t.locale) ?? new Map()).set(t.field, t.value));
  for (const [locale, fields] of byLocale) {
    const long = fields.get("longDescription");
    if (long === undefined) continue;
    docs.push({
      locale,
      name: row.name,
      ticker: row.bot_username,
      tags,
      body: `${fields.get("shortDescription") ?? ""} ${long}`,
    });
  }
  await putSearchDocs(tx, "tg-app", id, docs);
}
