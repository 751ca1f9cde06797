import { ddl } from "../ddl.ts";
import type { Dialect } from "../types.ts";

/**
 * The airdrop library: airdrops (English text in the row, other locales in
 * content_translations), their news, the library FAQ and the coin table behind
 * "popular cryptocurrencies". Status is derived from the dates, never stored. Money is
 * TEXT decimals (USD); `requirements` is a comma-wrapped list (",kyc,free,") so one
 * LIKE finds a tag on both databases.
 */
export function up(dialect: Dialect): string[] {
  const t = ddl(dialect);
  return [
    `CREATE TABLE airdrops (
      id ${t.id},
      slug TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      ticker TEXT NOT NULL,
      chain TEXT NOT NULL,
      type TEXT NOT NULL,
      requirements TEXT NOT NULL DEFAULT '',
      market_symbol TEXT NOT NULL DEFAULT '',
      est_value TEXT NOT NULL,
      seed_price TEXT NOT NULL,
      predicted_price TEXT NOT NULL,
      market_cap TEXT NOT NULL DEFAULT '0',
      listing_at ${t.bigint},
      start_at ${t.bigint} NOT NULL,
      end_at ${t.bigint} NOT NULL,
      claim_at ${t.bigint},
      website_url TEXT NOT NULL DEFAULT '',
      whitepaper_url TEXT NOT NULL DEFAULT '',
      discord_url TEXT NOT NULL DEFAULT '',
      x_url TEXT NOT NULL DEFAULT '',
      description TEXT NOT NULL,
      about TEXT NOT NULL DEFAULT '',
      airdrop_info TEXT NOT NULL DEFAULT '',
      price_detail TEXT NOT NULL DEFAULT '',
      prediction TEXT NOT NULL DEFAULT '',
      wiki_title TEXT NOT NULL DEFAULT '',
      wiki_body TEXT NOT NULL DEFAULT '',
      guide_json TEXT NOT NULL DEFAULT '[]',
      faq_json TEXT NOT NULL DEFAULT '[]',
      published ${t.bool} NOT NULL DEFAULT 1,
      created_at ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL
    )`,
    "CREATE INDEX airdrops_published_start_idx ON airdrops (published, start_at)",
    "CREATE INDEX airdrops_published_end_idx ON airdrops (published, end_at)",
    `CREATE TABLE content_translations (
      entity TEXT NOT NULL,
      entity_id ${t.bigint} NOT NULL,
      locale TEXT NOT NULL,
      field TEXT NOT NULL,
      value TEXT NOT NULL,
      PRIMARY KEY (entity, entity_id, locale, field)
    )`,
    `CREATE TABLE airdrop_news (
      id ${t.id},
      slug TEXT NOT NULL UNIQUE,
      airdrop_id ${t.bigint} REFERENCES airdrops(id),
      title TEXT NOT NULL,
      summary TEXT NOT NULL DEFAULT '',
      body TEXT NOT NULL DEFAULT '',
      published_at ${t.bigint} NOT NULL,
      published ${t.bool} NOT NULL DEFAULT 1,
      created_at ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL
    )`,
    "CREATE INDEX airdrop_news_published_idx ON airdrop_news (published, published_at)",
    "CREATE INDEX airdrop_news_airdrop_idx ON airdrop_news (airdrop_id)",
    `CREATE TABLE content_faq (
      page_key TEXT NOT NULL,
      locale TEXT NOT NULL,
      position INTEGER NOT NULL,
      question TEXT NOT NULL,
      answer TEXT NOT NULL,
      PRIMARY KEY (page_key, locale, position)
    )`,
    `CREATE TABLE market_coins (
      symbol TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      price TEXT NOT NULL,
      market_cap TEXT NOT NULL,
      change_24h TEXT NOT NULL,
      updated_at ${t.bigint} NOT NULL
    )`,
  ];
}
