import type {
  AirdropListQuery,
  AirdropRequirement,
  AirdropSortField,
  AirdropType,
  FaqItem,
  GuideStep,
} from "@meridian/contracts";
import { searchIds } from "../../platform/db/fulltext.ts";
import type { Queryable, SqlValue } from "../../platform/db/types.ts";
import { readOneCurrentHtml } from "../../platform/stored-html.ts";
import type { AirdropTexts } from "./texts.ts";
import { AIRDROPS_STORED_HTML } from "./writes.ts";

/** An airdrop as stored, English text. */
export interface AirdropRecord {
  id: number;
  slug: string;
  name: string;
  ticker: string;
  chain: string;
  type: AirdropType;
  requirements: AirdropRequirement[];
  marketSymbol: string;
  estValue: string;
  seedPrice: string;
  predictedPrice: string;
  marketCap: string;
  listingAt: number | null;
  startAt: number;
  endAt: number;
  claimAt: number | null;
  websiteUrl: string;
  whitepaperUrl: string;
  discordUrl: string;
  xUrl: string;
  description: string;
  about: string;
  airdropInfo: string;
  priceDetail: string;
  prediction: string;
  wikiTitle: string;
  wikiBody: string;
  guide: GuideStep[];
  faq: FaqItem[];
  published: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface NewsRecord {
  id: number;
  slug: string;
  airdropId: number | null;
  airdropSlug: string | null;
  title: string;
  summary: string;
  body: string;
  publishedAt: number;
  published: boolean;
  updatedAt: number;
}

export interface CoinRecord {
  symbol: string;
  name: string;
  price: string;
  marketCap: string;
  change24h: string;
}

interface AirdropRow {
  id: number | bigint;
  html_version: number | string | null;
  slug: string;
  name: string;
  ticker: string;
  chain: string;
  type: string;
  requirements: string;
  market_symbol: string;
  est_value: string;
  seed_price: string;
  predicted_price: string;
  market_cap: string;
  listing_at: number | string | null;
  start_at: number | string;
  end_at: number | string;
  claim_at: number | string | null;
  website_url: string;
  whitepaper_url: string;
  discord_url: string;
  x_url: string;
  description: string;
  about: string;
  airdrop_info: string;
  price_detail: string;
  prediction: string;
  wiki_title: string;
  wiki_body: string;
  guide_json: string;
  faq_json: string;
  published: number;
  created_at: number | string;
  updated_at: number | string;
}

// PostgreSQL returns BIGINT as a string; epoch milliseconds fit a JS number.
const num = (v: number | string | bigint): number => Number(v);
const numOrNull = (v: number | string | bigint | null): number | null => (v === null ? null : Number(v));

function parseJsonList<T>(text: string): T[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}

function toRecord(r: AirdropRow): AirdropRecord {
  return {
    id: num(r.id),
    slug: r.slug,
    name: r.name,
    ticker: r.ticker,
    chain: r.chain,
    type: r.type as AirdropType,
    requirements: r.requirements.split(",").filter((s) => s !== "") as AirdropRequirement[],
    marketSymbol: r.market_symbol,
    estValue: r.est_value,
    seedPrice: r.seed_price,
    predictedPrice: r.predicted_price,
    marketCap: r.market_cap,
    listingAt: numOrNull(r.listing_at),
    startAt: num(r.start_at),
    endAt: num(r.end_at),
    claimAt: numOrNull(r.claim_at),
    websiteUrl: r.website_url,
    whitepaperUrl: r.whitepaper_url,
    discordUrl: r.discord_url,
    xUrl: r.x_url,
    description: r.description,
    about: r.about,
    airdropInfo: r.airdrop_info,
    priceDetail: r.price_detail,
    prediction: r.prediction,
    wikiTitle: r.wiki_title,
    wikiBody: r.wiki_body,
    guide: parseJsonList<GuideStep>(r.guide_json),
    faq: parseJsonList<FaqItem>(r.faq_json),
    published: Number(r.published) === 1,
    createdAt: num(r.created_at),
    updatedAt: num(r.updated_at),
  };
}

/** Status rank for sorting: active, then upcoming, then closed. Two `now` parameters. */
const STATUS_RANK = "(CASE WHEN start_at > ? THEN 1 WHEN end_at > ? THEN 0 ELSE 2 END)";
const num8 = (column: string) => `CAST(${column} AS DOUBLE PRECISION)`;

/** ORDER BY expressions per sortable column; nullable dates sort last in both directions. */
interface SortSpec {
  expr: string;
  nullable?: string;
  usesNow?: boolean;
}

const SORT_SQL: { readonly [K in AirdropSortField]: SortSpec } = {
  name: { expr: "LOWER(name)" },
  ticker: { expr: "ticker" },
  chain: { expr: "LOWER(chain)" },
  status: { expr: STATUS_RANK, usesNow: true },
  estValue: { expr: num8("est_value") },
  currentPrice: { expr: num8("seed_price") },
  listingAt: { expr: "listing_at", nullable: "listing_at" },
  startAt: { expr: "start_at" },
  endAt: { expr: "end_at" },
  claimAt: { expr: "claim_at", nullable: "claim_at" },
};

export interface ListFilter
  extends Pick<AirdropListQuery, "status" | "type" | "requirement" | "chain" | "q"> {
  sort?: AirdropSortField | undefined;
  order?: "asc" | "desc" | undefined;
  limit: number;
  offset: number;
  /** The page's content language: `q` searches its texts (and English). */
  locale?: string | undefined;
}

/** The field whose translation makes an entity "written" in a locale. */
export const BODY_FIELD = { airdrop: "about", news: "body" } as const;

/**
 * Data access for airdrops, news and coins (SQL the same on both databases), and their
 * translations and FAQ through the content module's texts.
 */
export class AirdropsRepo {
  private readonly db: Queryable;
  private readonly texts: AirdropTexts;

  constructor(db: Queryable, texts: AirdropTexts) {
    this.db = db;
    this.texts = texts;
  }

  private whereOf(filter: Omit<ListFilter, "limit" | "offset" | "q">, now: number, ids?: readonly number[]) {
    const clauses = ["published = 1"];
    const params: SqlValue[] = [];
    if (filter.status === "upcoming") {
      clauses.push("start_at > ?");
      params.push(now);
    } else if (filter.status === "active") {
      clauses.push("start_at <= ? AND end_at > ?");
      params.push(now, now);
    } else if (filter.status === "closed") {
      clauses.push("end_at <= ?");
      params.push(now);
    }
    if (filter.type) {
      clauses.push("type = ?");
      params.push(filter.type);
    }
    if (filter.requirement) {
      clauses.push("requirements LIKE ?");
      params.push(`%,${filter.requirement},%`);
    }
    if (filter.chain) {
      clauses.push("LOWER(chain) = ?");
      params.push(filter.chain.toLowerCase());
    }
    if (ids) {
      clauses.push(`id IN (${ids.map(() => "?").join(", ")})`);
      params.push(...ids);
    }
    return { sql: clauses.join(" AND "), params };
  }

  /**
   * One page of published airdrops and the total matching the filters. A search `q` goes
   * through the full-text index (names, tickers, tags, bodies; words as prefixes) and,
   * without an explicit sort, orders by relevance.
   */
  async list(filter: ListFilter, now: number): Promise<{ rows: AirdropRecord[]; total: number }> {
    const q = filter.q?.trim() ?? "";
    if (q !== "") {
      const ranks = await searchIds(this.db, "airdrop", q, filter.locale ?? "en");
      if (ranks.size === 0) return { rows: [], total: 0 };
      if (filter.sort) return this.page(filter, now, [...ranks.keys()]);
      const where = this.whereOf(filter, now, [...ranks.keys()]);
      const all = (
        await this.db.all<AirdropRow>(`SELECT * FROM airdrops WHERE ${where.sql}`, where.params)
      ).map(toRecord);
      all.sort((a, b) => (ranks.get(a.id) ?? 0) - (ranks.get(b.id) ?? 0) || a.id - b.id);
      return { rows: all.slice(filter.offset, filter.offset + filter.limit), total: all.length };
    }
    return this.page(filter, now);
  }

  private async page(filter: ListFilter, now: number, ids?: readonly number[]) {
    const where = this.whereOf(filter, now, ids);
    const orderParams: SqlValue[] = [];
    let orderSql: string;
    if (filter.sort) {
      const spec = SORT_SQL[filter.sort];
      const dir = filter.order === "desc" ? "DESC" : "ASC";
      if (spec.usesNow) orderParams.push(now, now);
      orderSql = `${spec.nullable ? `(${spec.nullable} IS NULL), ` : ""}${spec.expr} ${dir}, id ${dir}`;
    } else {
      // Default: running first, soonest to end first; then upcoming; closed last, newest first.
      orderParams.push(now, now, now);
      orderSql = `${STATUS_RANK} ASC, (CASE WHEN end_at > ? THEN end_at ELSE -end_at END) ASC, id ASC`;
    }
    const [rows, count] = await Promise.all([
      this.db.all<AirdropRow>(
        `SELECT * FROM airdrops WHERE ${where.sql} ORDER BY ${orderSql} LIMIT ? OFFSET ?`,
        [...where.params, ...orderParams, filter.limit, filter.offset],
      ),
      this.db.get<{ n: number | string }>(
        `SELECT COUNT(*) AS n FROM airdrops WHERE ${where.sql}`,
        where.params,
      ),
    ]);
    return { rows: rows.map(toRecord), total: Number(count?.n ?? 0) };
  }

  async bySlug(slug: string, includeUnpublished = false): Promise<AirdropRecord | undefined> {
    // A row an older sanitiser cleaned (an older instance on a shared database) is cleaned once here.
    const row = await readOneCurrentHtml(this.db, AIRDROPS_STORED_HTML[0], () =>
      this.db.get<AirdropRow>(
        `SELECT * FROM airdrops WHERE slug = ?${includeUnpublished ? "" : " AND published = 1"}`,
        [slug],
      ),
    );
    return row ? toRecord(row) : undefined;
  }

  /** The published airdrops just before and after this one in start-date order. */
  async neighbours(a: AirdropRecord): Promise<{ previous?: AirdropRecord; next?: AirdropRecord }> {
    const [prev, next] = await Promise.all([
      this.db.get<AirdropRow>(
        `SELECT * FROM airdrops WHERE published = 1 AND (start_at < ? OR (start_at = ? AND id < ?))
         ORDER BY start_at DESC, id DESC LIMIT 1`,
        [a.startAt, a.startAt, a.id],
      ),
      this.db.get<AirdropRow>(
        `SELECT * FROM airdrops WHERE published = 1 AND (start_at > ? OR (start_at = ? AND id > ?))
         ORDER BY start_at ASC, id ASC LIMIT 1`,
        [a.startAt, a.startAt, a.id],
      ),
    ]);
    return { ...(prev ? { previous: toRecord(prev) } : {}), ...(next ? { next: toRecord(next) } : {}) };
  }

  /** Running airdrops first (ending soonest), excluding some ids. */
  async featured(now: number, limit: number, excludeIds: readonly number[] = []): Promise<AirdropRecord[]> {
    const exclude = excludeIds.length ? ` AND id NOT IN (${excludeIds.map(() => "?").join(", ")})` : "";
    const rows = await this.db.all<AirdropRow>(
      `SELECT * FROM airdrops WHERE published = 1${exclude}
       ORDER BY ${STATUS_RANK} ASC, (CASE WHEN end_at > ? THEN end_at ELSE -end_at END) ASC, id ASC LIMIT ?`,
      [...excludeIds, now, now, now, limit],
    );
    return rows.map(toRecord);
  }

  async statusCounts(now: number): Promise<{ upcoming: number; active: number; closed: number }> {
    const row = await this.db.get<{
      upcoming: number | string;
      active: number | string;
      closed: number | string;
    }>(
      `SELECT
         SUM(CASE WHEN start_at > ? THEN 1 ELSE 0 END) AS upcoming,
         SUM(CASE WHEN start_at <= ? AND end_at > ? THEN 1 ELSE 0 END) AS active,
         SUM(CASE WHEN end_at <= ? THEN 1 ELSE 0 END) AS closed
       FROM airdrops WHERE published = 1`,
      [now, now, now, now],
    );
    return {
      upcoming: Number(row?.upcoming ?? 0),
      active: Number(row?.active ?? 0),
      closed: Number(row?.closed ?? 0),
    };
  }

  async chains(): Promise<string[]> {
    const rows = await this.db.all<{ chain: string }>(
      "SELECT DISTINCT chain FROM airdrops WHERE published = 1 ORDER BY chain",
    );
    return rows.map((r) => r.chain);
  }

  /** Every published airdrop, for sitemaps and feeds. */
  async allPublished(): Promise<AirdropRecord[]> {
    const rows = await this.db.all<AirdropRow>("SELECT * FROM airdrops WHERE published = 1 ORDER BY id");
    return rows.map(toRecord);
  }

  /** Every airdrop, published or not (administrators). */
  async all(): Promise<AirdropRecord[]> {
    const rows = await this.db.all<AirdropRow>("SELECT * FROM airdrops ORDER BY start_at DESC, id DESC");
    return rows.map(toRecord);
  }

  /**
   * Field -> value of one locale's translations for the given entities, for the entities
   * written in that locale only (their body field exists): a page is wholly in one
   * language, never English text under translated headings or the reverse.
   */
  async translations(
    entity: "airdrop" | "news",
    ids: readonly number[],
    locale: string,
  ): Promise<Map<number, Map<string, string>>> {
    if (ids.length === 0 || locale === "en") return new Map();
    return this.texts.written(this.db, entity, ids, locale, BODY_FIELD[entity]);
  }

  /** Every stored translation of one entity: locale -> field -> value (guide and faq parsed). */
  async allTranslations(
    entity: "airdrop" | "news",
    id: number,
  ): Promise<Record<string, Record<string, unknown>>> {
    const out: Record<string, Record<string, unknown>> = {};
    for (const r of await this.texts.all(this.db, entity, id)) {
      let value: unknown = r.value;
      if (r.field === "guide" || r.field === "faq") {
        try {
          value = JSON.parse(r.value);
        } catch {
          value = [];
        }
      }
      out[r.locale] = { ...(out[r.locale] ?? {}), [r.field]: value };
    }
    return out;
  }

  /** The languages each entity is written in: English plus every locale holding its body. */
  async languages(entity: "airdrop" | "news", ids: readonly number[]): Promise<Map<number, string[]>> {
    const written = await this.texts.localesWith(this.db, entity, ids, BODY_FIELD[entity]);
    return new Map(ids.map((id) => [id, ["en", ...(written.get(id) ?? [])]]));
  }

  async news(
    limit: number,
    offset: number,
    airdropId?: number,
  ): Promise<{ rows: NewsRecord[]; total: number }> {
    const where = airdropId === undefined ? "n.published = 1" : "n.published = 1 AND n.airdrop_id = ?";
    const params: SqlValue[] = airdropId === undefined ? [] : [airdropId];
    const [rows, count] = await Promise.all([
      this.db.all<NewsRow>(
        `SELECT n.*, a.slug AS airdrop_slug FROM airdrop_news n LEFT JOIN airdrops a ON a.id = n.airdrop_id
         WHERE ${where} ORDER BY n.published_at DESC, n.id DESC LIMIT ? OFFSET ?`,
        [...params, limit, offset],
      ),
      this.db.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM airdrop_news n WHERE ${where}`, params),
    ]);
    return { rows: rows.map(toNews), total: Number(count?.n ?? 0) };
  }

  async newsBySlug(slug: string): Promise<NewsRecord | undefined> {
    const row = await readOneCurrentHtml(this.db, AIRDROPS_STORED_HTML[1], () =>
      this.db.get<NewsRow>(
        `SELECT n.*, a.slug AS airdrop_slug FROM airdrop_news n LEFT JOIN airdrops a ON a.id = n.airdrop_id
       WHERE n.slug = ? AND n.published = 1`,
        [slug],
      ),
    );
    return row ? toNews(row) : undefined;
  }

  async allNews(): Promise<NewsRecord[]> {
    const rows = await this.db.all<NewsRow>(
      `SELECT n.*, a.slug AS airdrop_slug FROM airdrop_news n LEFT JOIN airdrops a ON a.id = n.airdrop_id
       ORDER BY n.published_at DESC, n.id DESC`,
    );
    return rows.map(toNews);
  }

  /** A page's FAQ in one locale; English when that locale has none. */
  faq(pageKey: string, locale: string): Promise<FaqItem[]> {
    return this.texts.faq(this.db, pageKey, locale);
  }

  async topCoins(limit: number): Promise<CoinRecord[]> {
    const rows = await this.db.all<{
      symbol: string;
      name: string;
      price: string;
      market_cap: string;
      change_24h: string;
    }>(`SELECT * FROM market_coins ORDER BY ${num8("market_cap")} DESC, symbol LIMIT ?`, [limit]);
    return rows.map((r) => ({
      symbol: r.symbol,
      name: r.name,
      price: r.price,
      marketCap: r.market_cap,
      change24h: r.change_24h,
    }));
  }
}

interface NewsRow {
  id: number | bigint;
  html_version: number | string | null;
  slug: string;
  airdrop_id: number | string | null;
  airdrop_slug: string | null;
  title: string;
  summary: string;
  body: string;
  published_at: number | string;
  published: number;
  updated_at: number | string;
}

function toNews(r: NewsRow): NewsRecord {
  return {
    id: num(r.id),
    slug: r.slug,
    airdropId: numOrNull(r.airdrop_id),
    airdropSlug: r.airdrop_slug,
    title: r.title,
    summary: r.summary,
    body: r.body,
    publishedAt: num(r.published_at),
    published: Number(r.published) === 1,
    updatedAt: num(r.updated_at),
  };
}
