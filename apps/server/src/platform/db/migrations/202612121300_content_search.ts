import type { Dialect } from "../types.ts";

/**
 * Full-text index of the content (docs/content.md "Search"): one row per entity and
 * written language with its name, ticker, tags and plain-text body. SQLite uses FTS5
 * (diacritics folded); PostgreSQL a tsvector built with the language's text search
 * configuration, weighted A (name, ticker) > B (tags) > C (body), under a GIN index.
 */
export function up(dialect: Dialect): string[] {
  if (dialect === "sqlite") {
    return [
      `CREATE VIRTUAL TABLE content_search USING fts5(
        kind UNINDEXED, entity_id UNINDEXED, locale UNINDEXED, name, ticker, tags, body,
        tokenize = 'unicode61 remove_diacritics 2'
      )`,
    ];
  }
  return [
    `CREATE TABLE content_search (
      kind TEXT NOT NULL,
      entity_id BIGINT NOT NULL,
      locale TEXT NOT NULL,
      doc TSVECTOR NOT NULL,
      PRIMARY KEY (kind, entity_id, locale)
    )`,
    "CREATE INDEX content_search_doc_idx ON content_search USING GIN (doc)",
  ];
}
