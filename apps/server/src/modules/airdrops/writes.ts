import type { AirdropInput, AirdropNewsInput } from "@meridian/contracts";
import { putSearchDocs, type SearchDoc } from "../../platform/db/fulltext.ts";
import type { Queryable, SqlValue } from "../../platform/db/types.ts";
import { cleanStoredHtml, SANITIZER_VERSION, type StoredHtml } from "../../platform/stored-html.ts";
import type { AirdropTexts } from "./texts.ts";

/**
 * Rich text fields stored as HTML: bounded and sanitised on every save, stored clean with
 * the sanitiser's version and served as stored (pages never sanitise per view).
 */
const HTML_FIELDS = ["about", "airdropInfo", "priceDetail", "prediction", "wikiBody"] as const;

/** Where airdrops and news keep HTML: `refreshStoredHtml` at start, `readCurrentHtml` on read. */
export const AIRDROPS_STORED_HTML: readonly [StoredHtml, StoredHtml] = [
  {
    table: "airdrops",
    columns: ["about", "airdrop_info", "price_detail", "prediction", "wiki_body"],
    texts: {
      table: "content_translations",
      key: "entity_id",
      fields: HTML_FIELDS,
      kind: { column: "entity", value: "airdrop" },
    },
  },
  {
    table: "airdrop_news",
    columns: ["body"],
    texts: {
      table: "content_translations",
      key: "entity_id",
      fields: ["body"],
      kind: { column: "entity", value: "news" },
    },
  },
];

/** The input with every HTML field (English and translations) bounded and sanitised; 10422 when out of bounds. */
export function sanitizeAirdropInput(input: AirdropInput): AirdropInput {
  const out: AirdropInput = { ...input, translations: {} };
  for (const field of HTML_FIELDS) out[field] = cleanStoredHtml(field, input[field]);
  for (const [locale, text] of Object.entries(input.translations)) {
    const copy = { ...text };
    for (const field of HTML_FIELDS) {
      const value = copy[field];
      if (value !== undefined) copy[field] = cleanStoredHtml(`translations.${locale}.${field}`, value);
    }
    out.translations[locale] = copy;
  }
  return out;
}

/** The news input with its body and every translated body sanitised. */
export function sanitizeNewsInput(input: AirdropNewsInput): AirdropNewsInput {
  const translations: AirdropNewsInput["translations"] = {};
  for (const [locale, text] of Object.entries(input.translations))
    translations[locale] =
      text.body === undefined
        ? text
        : { ...text, body: cleanStoredHtml(`translations.${locale}.body`, text.body) };
  return { ...input, body: cleanStoredHtml("body", input.body), translations };
}

const COLUMNS = [
  "slug",
  "name",
  "ticker",
  "chain",
  "type",
  "requirements",
  "market_symbol",
  "est_value",
  "seed_price",
  "predicted_price",
  "market_cap",
  "listing_at",
  "start_at",
  "end_at",
  "claim_at",
  "website_url",
  "whitepaper_url",
  "discord_url",
  "x_url",
  "description",
  "about",
  "airdrop_info",
  "price_detail",
  "prediction",
  "wiki_title",
  "wiki_body",
  "guide_json",
  "faq_json",
  "published",
  "html_version",
] as const;

function values(a: AirdropInput): SqlValue[] {
  return [
    a.slug,
    a.name,
    a.ticker,
    a.chain,
    a.type,
    a.requirements.length ? `,${a.requirements.join(",")},` : "",
    a.marketSymbol,
    a.estValue,
    a.seedPrice,
    a.predictedPrice,
    a.marketCap,
    a.listingAt,
    a.startAt,
    a.endAt,
    a.claimAt,
    a.websiteUrl,
    a.whitepaperUrl,
    a.discordUrl,
    a.xUrl,
    a.description,
    a.about,
    a.airdropInfo,
    a.priceDetail,
    a.prediction,
    a.wikiTitle,
    a.wikiBody,
    JSON.stringify(a.guide),
    JSON.stringify(a.faq),
    a.published ? 1 : 0,
    SANITIZER_VERSION,
  ];
}

export type SaveMode = "insert-only" | "upsert";

/**
 * Writes one airdrop (by slug) and its translations. Call inside a transaction
 * with an input that went through `sanitizeAirdropInput`. "insert-only" leaves an
 * existing slug untouched (seeds); returns the id, or undefined when nothing was written.
 */
export async function saveAirdrop(
  tx: Queryable,
  texts: AirdropTexts,
  input: AirdropInput,
  now: number,
  mode: SaveMode = "upsert",
): Promise<number | undefined> {
  const cols = [...COLUMNS, "created_at", "updated_at"];
  const placeholders = cols.map(() => "?").join(", ");
  const update = [...COLUMNS.filter((c) => c !== "slug"), "updated_at"].map((c) => `${c} = excluded.${c}`);
  const conflict = mode === "insert-only" ? "DO NOTHING" : `DO UPDATE SET ${update.join(", ")}`;
  const row = await tx.get<{ id: number | string }>(
    `INSERT INTO airdrops (${cols.join(", ")}) VALUES (${placeholders})
     ON CONFLICT (slug) ${conflict} RETURNING id`,
    [...values(input), now, now],
  );
  if (!row) return undefined;
  const id = Number(row.id);
  // A fresh row takes the input's translations; an upsert over a stored slug (import)
  // keeps the locales the input does not carry.
  if (mode === "insert-only") await texts.replace(tx, "airdrop", id, input.translations);
  else await texts.merge(tx, "airdrop", id, input.translations);
  await indexAirdrop(tx, texts, id);
  return id;
}

const SEARCH_FIELDS = ["description", "about", "airdropInfo", "wikiBody"] as const;

/**
 * Rewrites the search index of one airdrop: English and every language it is written in
 * (its `about` translated), with name, ticker, tags (chain, type, requirements) and body.
 */
export async function indexAirdrop(tx: Queryable, texts: AirdropTexts, id: number): Promise<void> {
  const row = await tx.get<Record<string, string>>(
    `SELECT name, ticker, chain, type, requirements, description, about, airdrop_info AS "airdropInfo",
       wiki_body AS "wikiBody" FROM airdrops WHERE id = ?`,
    [id],
  );
  if (!row) return;
  const tags = [row.chain, row.type, ...(row.requirements ?? "").split(",")]
    .filter(Boolean)
    .join(" ")
    .replace(/_/g, " ");
  const docs: SearchDoc[] = [
    {
      locale: "en",
      name: row.name ?? "",
      ticker: row.ticker ?? "",
      tags,
      body: SEARCH_FIELDS.map((f) => row[f] ?? "").join(" "),
    },
  ];
  const byLocale = new Map<string, Map<string, string>>();
  for (const t of await texts.all(tx, "airdrop", id))
    byLocale.set(t.locale, (byLocale.get(t.locale) ?? new Map()).set(t.field, t.value));
  for (const [locale, fields] of byLocale) {
    if (!fields.has("about")) continue;
    const body = SEARCH_FIELDS.map((f) => fields.get(f) ?? "").join(" ");
    docs.push({ locale, name: row.name ?? "", ticker: row.ticker ?? "", tags, body });
  }
  await putSearchDocs(tx, "airdrop", id, docs);
}

/** Updates the airdrop with this id (slug may change). False when there is no such id. */
export async function updateAirdrop(
  tx: Queryable,
  texts: AirdropTexts,
  id: number,
  input: AirdropInput,
  now: number,
): Promise<boolean> {
  const sets = COLUMNS.map((c) => `${c} = ?`).join(", ");
  const result = await tx.run(`UPDATE airdrops SET ${sets}, updated_at = ? WHERE id = ?`, [
    ...values(input),
    now,
    id,
  ]);
  if (result.changes === 0) return false;
  // An edit touches only the translations it carries: the admin form edits English and
  // sends none, so every other locale stays as stored.
  await texts.merge(tx, "airdrop", id, input.translations);
  await indexAirdrop(tx, texts, id);
  return true;
}

export async function setAirdropPublished(tx: Queryable, id: number, published: boolean, now: number) {
  const r = await tx.run("UPDATE airdrops SET published = ?, updated_at = ? WHERE id = ?", [
    published ? 1 : 0,
    now,
    id,
  ]);
  return r.changes > 0;
}

async function airdropIdOf(tx: Queryable, slug: string | null): Promise<number | null> {
  if (slug === null) return null;
  const row = await tx.get<{ id: number | string }>("SELECT id FROM airdrops WHERE slug = ?", [slug]);
  if (!row) throw new UnknownAirdropError(slug);
  return Number(row.id);
}

export class UnknownAirdropError extends Error {
  override name = "UnknownAirdropError";
  readonly slug: string;

  constructor(slug: string) {
    super(`no airdrop with slug ${slug}`);
    this.slug = slug;
  }
}

/** Writes one news item by slug (sanitised input). Returns its id, undefined when insert-only skipped it. */
export async function saveNews(
  tx: Queryable,
  texts: AirdropTexts,
  input: AirdropNewsInput,
  now: number,
  mode: SaveMode = "upsert",
  id?: number,
): Promise<number | undefined> {
  const airdropId = await airdropIdOf(tx, input.airdropSlug);
  const vals: SqlValue[] = [
    input.slug,
    airdropId,
    input.title,
    input.summary,
    input.body,
    input.publishedAt,
    input.published ? 1 : 0,
    SANITIZER_VERSION,
  ];
  let newsId: number | undefined;
  if (id !== undefined) {
    const r = await tx.run(
      `UPDATE airdrop_news SET slug = ?, airdrop_id = ?, title = ?, summary = ?, body = ?, published_at = ?,
       published = ?, html_version = ?, updated_at = ? WHERE id = ?`,
      [...vals, now, id],
    );
    newsId = r.changes > 0 ? id : undefined;
  } else {
    const conflict =
      mode === "insert-only"
        ? "DO NOTHING"
        : "DO UPDATE SET airdrop_id = excluded.airdrop_id, title = excluded.title, summary = excluded.summary, body = excluded.body, published_at = excluded.published_at, published = excluded.published, html_version = excluded.html_version, updated_at = excluded.updated_at";
    const row = await tx.get<{ id: number | string }>(
      `INSERT INTO airdrop_news (slug, airdrop_id, title, summary, body, published_at, published, html_version, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (slug) ${conflict} RETURNING id`,
      [...vals, now, now],
    );
    newsId = row ? Number(row.id) : undefined;
  }
  if (newsId === undefined) return undefined;
  // Seeds write a new item whole; an edit (by id, or an upsert of an existing slug) keeps
  // the locales it does not carry: the admin form edits English only.
  if (mode === "insert-only") await texts.replace(tx, "news", newsId, input.translations);
  else await texts.merge(tx, "news", newsId, input.translations);
  return newsId;
}

export async function setNewsPublished(tx: Queryable, id: number, published: boolean, now: number) {
  const r = await tx.run("UPDATE airdrop_news SET published = ?, updated_at = ? WHERE id = ?", [
    published ? 1 : 0,
    now,
    id,
  ]);
  return r.changes > 0;
}

export async function saveCoin(
  tx: Queryable,
  coin: { symbol: string; name: string; price: string; marketCap: string; change24h: string },
  now: number,
) {
  await tx.run(
    `INSERT INTO market_coins (symbol, name, price, market_cap, change_24h, updated_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (symbol) DO NOTHING`,
    [coin.symbol, coin.name, coin.price, coin.marketCap, coin.change24h, now],
  );
}
