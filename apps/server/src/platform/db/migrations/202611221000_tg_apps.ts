import { ddl } from "../ddl.ts";
import type { Dialect } from "../types.ts";

/**
 * The Apps and Bot Center: apps (English text in the row, other locales in
 * tg_app_texts), per-user ratings with the aggregate kept on the app row in the same
 * transaction, per-day detail-page visits, articles, and the listing requests app owners
 * submit. `languages` and `platforms` are comma-wrapped lists (",en,ru,") so one LIKE
 * finds a value on both databases.
 */
export function up(dialect: Dialect): string[] {
  const t = ddl(dialect);
  return [
    `CREATE TABLE tg_apps (
      id ${t.id},
      slug TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      name_lower TEXT NOT NULL,
      category INTEGER NOT NULL CHECK (category BETWEEN 1 AND 7),
      editors_choice ${t.bool} NOT NULL DEFAULT 0,
      bot_username TEXT NOT NULL,
      start_param TEXT NOT NULL DEFAULT '',
      website TEXT NOT NULL DEFAULT '',
      icon_url TEXT NOT NULL DEFAULT '',
      screenshots_json TEXT NOT NULL DEFAULT '[]',
      languages TEXT NOT NULL DEFAULT ',en,',
      platforms TEXT NOT NULL DEFAULT ',web,',
      token_launch ${t.bool} NOT NULL DEFAULT 0,
      short_description TEXT NOT NULL,
      long_description TEXT NOT NULL DEFAULT '',
      rating_count INTEGER NOT NULL DEFAULT 0,
      rating_sum INTEGER NOT NULL DEFAULT 0,
      published ${t.bool} NOT NULL DEFAULT 1,
      listed_at ${t.bigint} NOT NULL,
      created_at ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL
    )`,
    "CREATE INDEX tg_apps_published_category_idx ON tg_apps (published, category)",
    "CREATE INDEX tg_apps_published_listed_idx ON tg_apps (published, listed_at)",
    `CREATE TABLE tg_app_texts (
      app_id ${t.bigint} NOT NULL REFERENCES tg_apps(id) ON DELETE CASCADE,
      locale TEXT NOT NULL,
      field TEXT NOT NULL,
      value TEXT NOT NULL,
      PRIMARY KEY (app_id, locale, field)
    )`,
    `CREATE TABLE tg_app_ratings (
      app_id ${t.bigint} NOT NULL REFERENCES tg_apps(id) ON DELETE CASCADE,
      user_id TEXT NOT NULL,
      stars INTEGER NOT NULL CHECK (stars BETWEEN 1 AND 5),
      created_at ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL,
      PRIMARY KEY (app_id, user_id)
    )`,
    "CREATE INDEX tg_app_ratings_updated_idx ON tg_app_ratings (updated_at)",
    "CREATE INDEX tg_app_ratings_user_idx ON tg_app_ratings (user_id, updated_at)",
    `CREATE TABLE tg_app_visits (
      app_id ${t.bigint} NOT NULL REFERENCES tg_apps(id) ON DELETE CASCADE,
      day INTEGER NOT NULL,
      visits INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (app_id, day)
    )`,
    `CREATE TABLE tg_articles (
      id ${t.id},
      slug TEXT NOT NULL UNIQUE,
      app_id ${t.bigint} NOT NULL REFERENCES tg_apps(id) ON DELETE CASCADE,
      title TEXT NOT NULL,
      summary TEXT NOT NULL DEFAULT '',
      body TEXT NOT NULL DEFAULT '',
      published ${t.bool} NOT NULL DEFAULT 1,
      published_at ${t.bigint} NOT NULL,
      created_at ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL
    )`,
    "CREATE INDEX tg_articles_app_idx ON tg_articles (app_id, published_at)",
    "CREATE INDEX tg_articles_published_idx ON tg_articles (published, published_at)",
    `CREATE TABLE tg_article_texts (
      article_id ${t.bigint} NOT NULL REFERENCES tg_articles(id) ON DELETE CASCADE,
      locale TEXT NOT NULL,
      field TEXT NOT NULL,
      value TEXT NOT NULL,
      PRIMARY KEY (article_id, locale, field)
    )`,
    `CREATE TABLE tg_app_submissions (
      id ${t.id},
      name TEXT NOT NULL,
      bot_username TEXT NOT NULL,
      website TEXT NOT NULL DEFAULT '',
      category INTEGER NOT NULL,
      email TEXT NOT NULL,
      description TEXT NOT NULL,
      user_id TEXT,
      status TEXT NOT NULL DEFAULT 'pending',
      app_id ${t.bigint},
      created_at ${t.bigint} NOT NULL,
      reviewed_at ${t.bigint}
    )`,
    "CREATE INDEX tg_app_submissions_status_idx ON tg_app_submissions (status, created_at)",
  ];
}
