import type { Queryable } from "./types.ts";

/**
 * The content search index (migration 202612121300_content_search): written by the
 * content modules whenever an entity or its translations change, queried with prefix
 * matching and ranking. Same calls on SQLite (FTS5, bm25) and PostgreSQL (tsvector with
 * the language's configuration, ts_rank).
 */
export type SearchKind = "airdrop" | "tg-app";

export interface SearchDoc {
  locale: string;
  name: string;
  ticker: string;
  tags: string;
  /** Plain text or HTML (tags are dropped). */
  body: string;
}

/** PostgreSQL text search configuration per content language; others use `simple`. */
const PG_CONFIG: Record<string, string> = {
  ar: "arabic",
  de: "german",
  en: "english",
  es: "spanish",
  fr: "french",
  id: "indonesian",
  it: "italian",
  nl: "dutch",
  pt: "portuguese",
  ru: "russian",
  sv: "swedish",
  tr: "turkish",
};
const pgConfig = (locale: string) => PG_CONFIG[locale] ?? "simple";

const plain = (html: string) =>
  html
    .replace(/<[^>]*>/g, " ")
    .replace(/&[a-z#0-9]+;/gi, " ")
    .replace(/\s+/g, " ")
    .trim();

/** Replaces every indexed language of one entity. */
export async function putSearchDocs(
  tx: Queryable,
  kind: SearchKind,
  id: number,
  docs: readonly SearchDoc[],
): Promise<void> {
  await tx.run("DELETE FROM content_search WHERE kind = ? AND entity_id = ?", [kind, id]);
  for (const d of docs) {
    const body = plain(d.body);
    if (tx.dialect === "sqlite") {
      await tx.run(
        "INSERT INTO content_search (kind, entity_id, locale, name, ticker, tags, body) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [kind, id, d.locale, d.name, d.ticker, d.tags, body],
      );
    } else {
      const cfg = pgConfig(d.locale);
      await tx.run(
        `INSERT INTO content_search (kind, entity_id, locale, doc) VALUES (?, ?, ?,
          setweight(to_tsvector('simple', ?), 'A') || setweight(to_tsvector(?::regconfig, ?), 'A')
          || setweight(to_tsvector(?::regconfig, ?), 'B') || setweight(to_tsvector(?::regconfig, ?), 'C'))`,
        [kind, id, d.locale, `${d.name} ${d.ticker}`, cfg, d.name, cfg, d.tags, cfg, body],
      );
    }
  }
}

export async function deleteSearchDocs(tx: Queryable, kind: SearchKind, id: number): Promise<void> {
  await tx.run("DELETE FROM content_search WHERE kind = ? AND entity_id = ?", [kind, id]);
}

/** Words of a query: letters and digits of any script, lower-cased, at most 8. */
export function searchTerms(q: string): string[] {
  return (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
}

/**
 * Entities matching every word of `q` as a prefix, in the page's language (`locale`) or
 * English, best first: id -> rank (lower is better). Empty when nothing matches.
 */
export async function searchIds(
  db: Queryable,
  kind: SearchKind,
  q: string,
  locale: string,
): Promise<Map<number, number>> {
  const terms = searchTerms(q);
  const out = new Map<number, number>();
  if (terms.length === 0) return out;
  const locales = [...new Set([locale, "en"])];
  const inLocales = locales.map(() => "?").join(", ");
  let rows: { id: number | string; rank: number | string }[];
  if (db.dialect === "sqlite") {
    const match = terms.map((t) => `"${t}"*`).join(" ");
    // bm25 weights in column order: kind, entity_id, locale (unindexed), name, ticker, tags, body.
    // bm25 cannot sit under an aggregate: the best language per entity is picked below.
    rows = await db.all(
      `SELECT entity_id AS id, bm25(content_search, 0, 0, 0, 10, 10, 4, 1) AS rank FROM content_search
       WHERE content_search MATCH ? AND kind = ? AND locale IN (${inLocales})`,
      [match, kind, ...locales],
    );
  } else {
    const query = terms.map((t) => `${t.replace(/'/g, "")}:*`).join(" & ");
    const cfg = pgConfig(locale);
    rows = await db.all(
      `SELECT entity_id AS id, -MAX(ts_rank(doc, q)) AS rank
       FROM content_search, (SELECT to_tsquery(?::regconfig, ?) || to_tsquery('simple', ?) AS q) AS query
       WHERE kind = ? AND locale IN (${inLocales}) AND doc @@ q GROUP BY entity_id`,
      [cfg, query, query, kind, ...locales],
    );
  }
  for (const r of rows) {
    const id = Number(r.id);
    out.set(id, Math.min(out.get(id) ?? Number.POSITIVE_INFINITY, Number(r.rank)));
  }
  return out;
}
