import {
  type AdminAirdropNewsRow,
  type AdminAirdropRow,
  type AIRDROP_TEXT_FIELDS,
  type AirdropDetail,
  type AirdropDetailResult,
  type AirdropHomeResult,
  type AirdropIndexResult,
  type AirdropInput,
  type AirdropListQuery,
  type AirdropListResult,
  type AirdropNewsDetailResult,
  type AirdropNewsInput,
  type AirdropNewsItem,
  type AirdropNewsListResult,
  type AirdropSummary,
  airdropStatus,
  daysLeft,
  type FaqItem,
  type GuideStep,
  getLocale,
  normalizeLocale,
  type PopularCoin,
} from "@meridian/contracts";
import type { Db } from "../../platform/db/types.ts";
import { errors } from "../../platform/errors.ts";
import { type AirdropRecord, AirdropsRepo, type NewsRecord } from "./repo.ts";
import type { AirdropTexts } from "./texts.ts";
import {
  sanitizeAirdropInput,
  sanitizeNewsInput,
  saveAirdrop,
  saveNews,
  setAirdropPublished,
  setNewsPublished,
  UnknownAirdropError,
  updateAirdrop,
} from "./writes.ts";

/**
 * Current prices by market symbol (e.g. NOTUSDT), for the symbols the market lists (the
 * market module's `prices`). An airdrop whose symbol is missing from the answer is not
 * tradeable: no market symbol, the seeded price. Without a source (tests of this module
 * alone) the stored symbol and price are shown as stored.
 */
export type PriceSource = (symbols: readonly string[]) => Promise<Map<string, string>>;

/** Popular coins by market cap from the market-data service (undefined when it does not run). */
export type CoinSource = (limit: number) => PopularCoin[] | undefined;

export interface AirdropsServiceDeps {
  db: Db;
  /** The translations and FAQ: the content module's `contentTexts`. */
  texts: AirdropTexts;
  now?: () => number;
  prices?: PriceSource;
  coins?: CoinSource;
}

/**
 * The USDT pair of an airdrop's token once its listing date has passed: the stored market
 * symbol, or `{TICKER}USDT` (the pair the market lists for it, `listed-tokens.ts`).
 */
function tradeSymbol(r: AirdropRecord, now: number): string {
  if (r.listingAt === null || r.listingAt > now || r.ticker === "") return "";
  return r.marketSymbol || `${r.ticker.toUpperCase()}USDT`;
}

export const HOME_FAQ_KEY = "airdrops.home";
const POPULAR_COUNT = 8;
const FAQ_COUNT = 8;

/** Content locale for a request: the supported code's translation set, "en" by default. */
export function contentLocale(locale: string | undefined): string {
  const code = normalizeLocale(locale ?? "") ?? "en";
  return getLocale(code).content;
}

/** Reads and writes of the airdrop library; text comes back in the request locale with English fallback. */
export class AirdropsService {
  private readonly repo: AirdropsRepo;
  private readonly db: Db;
  private readonly texts: AirdropTexts;
  private readonly now: () => number;
  private readonly prices: PriceSource | undefined;
  private readonly coins: CoinSource | undefined;

  constructor(deps: AirdropsServiceDeps) {
    this.db = deps.db;
    this.texts = deps.texts;
    this.repo = new AirdropsRepo(deps.db, deps.texts);
    this.now = deps.now ?? Date.now;
    this.prices = deps.prices;
    this.coins = deps.coins;
  }

  private async priceMap(records: readonly AirdropRecord[], now: number): Promise<Map<string, string>> {
    if (!this.prices) return new Map();
    const symbols = records.map((r) => tradeSymbol(r, now)).filter((s) => s !== "");
    return symbols.length ? this.prices(symbols) : new Map();
  }

  /** The pair to trade the airdrop's token on: only one the market lists. */
  private symbolOf(r: AirdropRecord, now: number, prices: Map<string, string>): string {
    if (!this.prices) return r.marketSymbol;
    const symbol = tradeSymbol(r, now);
    return prices.has(symbol) ? symbol : "";
  }

  private summarize(
    r: AirdropRecord,
    now: number,
    locale: string,
    tr: Map<string, string> | undefined,
    prices: Map<string, string>,
  ): AirdropSummary {
    return {
      slug: r.slug,
      name: r.name,
      ticker: r.ticker,
      chain: r.chain,
      type: r.type,
      requirements: r.requirements,
      status: airdropStatus(r.startAt, r.endAt, now),
      daysLeft: daysLeft(r.endAt, now),
      estValue: r.estValue,
      // No price before the token lists, whatever a stored row says.
      currentPrice:
        r.listingAt === null || r.listingAt > now
          ? "0"
          : (prices.get(this.symbolOf(r, now, prices)) ?? r.seedPrice),
      predictedPrice: r.predictedPrice,
      marketSymbol: this.symbolOf(r, now, prices),
      listingAt: r.listingAt,
      startAt: r.startAt,
      endAt: r.endAt,
      claimAt: r.claimAt,
      description: tr?.get("description") ?? r.description,
      textLocale: tr?.has("description") ? locale : "en",
      updatedAt: r.updatedAt,
    };
  }

  private async summaries(records: readonly AirdropRecord[], locale: string, now: number) {
    const [tr, prices] = await Promise.all([
      this.repo.translations(
        "airdrop",
        records.map((r) => r.id),
        locale,
      ),
      this.priceMap(records, now),
    ]);
    return records.map((r) => this.summarize(r, now, locale, tr.get(r.id), prices));
  }

  private async newsItems(records: readonly NewsRecord[], locale: string): Promise<AirdropNewsItem[]> {
    const tr = await this.repo.translations(
      "news",
      records.map((n) => n.id),
      locale,
    );
    return records.map((n) => ({
      slug: n.slug,
      title: tr.get(n.id)?.get("title") ?? n.title,
      summary: tr.get(n.id)?.get("summary") ?? n.summary,
      textLocale: tr.get(n.id)?.has("title") ? locale : "en",
      airdropSlug: n.airdropSlug,
      publishedAt: n.publishedAt,
    }));
  }

  async list(query: AirdropListQuery): Promise<AirdropListResult> {
    const now = this.now();
    const locale = contentLocale(query.locale);
    const { rows, total } = await this.repo.list(
      {
        status: query.status,
        type: query.type,
        requirement: query.requirement,
        chain: query.chain,
        q: query.q,
        locale,
        sort: query.sort,
        order: query.order,
        limit: query.pageSize,
        offset: (query.page - 1) * query.pageSize,
      },
      now,
    );
    const [items, chains] = await Promise.all([this.summaries(rows, locale, now), this.repo.chains()]);
    return { items, total, page: query.page, pageSize: query.pageSize, chains };
  }

  async detail(slug: string, requestLocale: string | undefined): Promise<AirdropDetailResult> {
    const now = this.now();
    const locale = contentLocale(requestLocale);
    const record = await this.repo.bySlug(slug);
    if (!record) throw errors.notFound("No such airdrop");
    const [{ previous, next }, others, ownNews] = await Promise.all([
      this.repo.neighbours(record),
      this.repo.featured(now, 6, [record.id]),
      this.repo.news(5, 0, record.id),
    ]);
    const news = ownNews.rows.length > 0 ? ownNews.rows : (await this.repo.news(5, 0)).rows;
    const related = [previous, next].filter((r): r is AirdropRecord => r !== undefined);
    const [[summary, ...rest], tr, newsItems, languages] = await Promise.all([
      this.summaries([record, ...related, ...others], locale, now),
      this.repo.translations("airdrop", [record.id], locale),
      this.newsItems(news, locale),
      this.repo.languages("airdrop", [record.id]),
    ]);
    if (!summary) throw errors.notFound("No such airdrop");
    const own = tr.get(record.id);
    const text = (field: (typeof AIRDROP_TEXT_FIELDS)[number]) => own?.get(field) ?? record[field];
    const list = <T>(field: "guide" | "faq", fallback: T[]): T[] => {
      const raw = own?.get(field);
      if (raw === undefined) return fallback;
      try {
        const parsed: unknown = JSON.parse(raw);
        return Array.isArray(parsed) && parsed.length > 0 ? (parsed as T[]) : fallback;
      } catch {
        return fallback;
      }
    };
    const airdrop: AirdropDetail = {
      ...summary,
      about: text("about"),
      airdropInfo: text("airdropInfo"),
      priceDetail: text("priceDetail"),
      prediction: text("prediction"),
      wikiTitle: text("wikiTitle"),
      wikiBody: text("wikiBody"),
      guide: list<GuideStep>("guide", record.guide),
      faq: list<FaqItem>("faq", record.faq),
      links: {
        website: record.websiteUrl,
        whitepaper: record.whitepaperUrl,
        discord: record.discordUrl,
        x: record.xUrl,
      },
      contentLocale: own && own.size > 0 ? locale : "en",
      contentLanguages: languages.get(record.id) ?? ["en"],
    };
    const previousSummary = previous ? (rest.shift() ?? null) : null;
    const nextSummary = next ? (rest.shift() ?? null) : null;
    return { airdrop, previous: previousSummary, next: nextSummary, others: rest, news: newsItems, now };
  }

  async home(requestLocale: string | undefined): Promise<AirdropHomeResult> {
    const now = this.now();
    const locale = contentLocale(requestLocale);
    const live = this.coins?.(POPULAR_COUNT);
    const [coins, news, faq, featured, counts] = await Promise.all([
      live && live.length > 0 ? live : this.repo.topCoins(POPULAR_COUNT),
      this.repo.news(6, 0),
      this.repo.faq(HOME_FAQ_KEY, locale),
      this.repo.featured(now, 6),
      this.repo.statusCounts(now),
    ]);
    const pairs = this.prices ? await this.prices(coins.map((c) => `${c.symbol}USDT`)) : undefined;
    return {
      popular: coins.map((c) => ({
        symbol: c.symbol,
        name: c.name,
        price: c.price,
        marketCap: c.marketCap,
        change24h: c.change24h,
        // stablecoins and coins the market does not list have no pair to open
        marketSymbol: !pairs || pairs.has(`${c.symbol}USDT`) ? `${c.symbol}USDT` : "",
      })),
      news: await this.newsItems(news.rows, locale),
      faq: faq.slice(0, FAQ_COUNT),
      featured: await this.summaries(featured, locale, now),
      counts,
      now,
    };
  }

  async newsList(
    requestLocale: string | undefined,
    page: number,
    pageSize: number,
  ): Promise<AirdropNewsListResult> {
    const locale = contentLocale(requestLocale);
    const { rows, total } = await this.repo.news(pageSize, (page - 1) * pageSize);
    return { items: await this.newsItems(rows, locale), total, page, pageSize };
  }

  /** One published news item with its body, the airdrop it is about and other recent news. */
  async newsDetail(slug: string, requestLocale: string | undefined): Promise<AirdropNewsDetailResult> {
    const locale = contentLocale(requestLocale);
    const record = await this.repo.newsBySlug(slug);
    if (!record) throw errors.notFound("No such news item");
    const [tr, recent, airdrop, languages] = await Promise.all([
      this.repo.translations("news", [record.id], locale),
      this.repo.news(6, 0),
      record.airdropSlug ? this.repo.bySlug(record.airdropSlug) : Promise.resolve(undefined),
      this.repo.languages("news", [record.id]),
    ]);
    const own = tr.get(record.id);
    const others = recent.rows.filter((n) => n.id !== record.id).slice(0, 5);
    return {
      item: {
        slug: record.slug,
        title: own?.get("title") ?? record.title,
        summary: own?.get("summary") ?? record.summary,
        textLocale: own?.has("title") ? locale : "en",
        airdropSlug: airdrop ? record.airdropSlug : null,
        publishedAt: record.publishedAt,
        body: own?.get("body") ?? record.body,
        updatedAt: record.updatedAt,
        airdropName: airdrop?.name ?? null,
        contentLocale: own?.has("body") ? locale : "en",
        contentLanguages: languages.get(record.id) ?? ["en"],
      },
      related: await this.newsItems(others, locale),
    };
  }

  /** Every published airdrop with the dates sitemaps and feeds need, in the request locale. */
  async index(requestLocale: string | undefined): Promise<AirdropIndexResult> {
    const locale = contentLocale(requestLocale);
    const [rows, allNews] = await Promise.all([this.repo.allPublished(), this.repo.allNews()]);
    const news = allNews.filter((n) => n.published);
    const [tr, languages, newsLanguages] = await Promise.all([
      this.repo.translations(
        "airdrop",
        rows.map((r) => r.id),
        locale,
      ),
      this.repo.languages(
        "airdrop",
        rows.map((r) => r.id),
      ),
      this.repo.languages(
        "news",
        news.map((n) => n.id),
      ),
    ]);
    return {
      news: news.map((n) => ({
        slug: n.slug,
        publishedAt: n.publishedAt,
        updatedAt: n.updatedAt,
        contentLanguages: newsLanguages.get(n.id) ?? ["en"],
      })),
      items: rows.map((r) => ({
        slug: r.slug,
        name: r.name,
        ticker: r.ticker,
        description: tr.get(r.id)?.get("description") ?? r.description,
        startAt: r.startAt,
        endAt: r.endAt,
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
        contentLanguages: languages.get(r.id) ?? ["en"],
      })),
    };
  }

  // ------------------------------------------------------------------- administrators

  async adminList(): Promise<{ airdrops: AdminAirdropRow[]; news: AdminAirdropNewsRow[] }> {
    const now = this.now();
    const [rows, news] = await Promise.all([this.repo.all(), this.repo.allNews()]);
    const [summaries, languages, newsLanguages] = await Promise.all([
      this.summaries(rows, "en", now),
      this.repo.languages(
        "airdrop",
        rows.map((r) => r.id),
      ),
      this.repo.languages(
        "news",
        news.map((n) => n.id),
      ),
    ]);
    return {
      airdrops: rows.map((r, i) => ({
        ...(summaries[i] as AirdropSummary),
        id: r.id,
        published: r.published,
        contentLanguages: languages.get(r.id) ?? ["en"],
      })),
      news: news.map((n) => ({
        id: n.id,
        slug: n.slug,
        title: n.title,
        summary: n.summary,
        textLocale: "en",
        body: n.body,
        airdropSlug: n.airdropSlug,
        publishedAt: n.publishedAt,
        published: n.published,
        contentLanguages: newsLanguages.get(n.id) ?? ["en"],
      })),
    };
  }

  /** The stored airdrop with every language's texts, for the editor's language switch. */
  async adminGet(
    slug: string,
  ): Promise<AirdropRecord & { translations: Record<string, Record<string, unknown>> }> {
    const record = await this.repo.bySlug(slug, true);
    if (!record) throw errors.notFound("No such airdrop");
    return { ...record, translations: await this.repo.allTranslations("airdrop", record.id) };
  }

  async create(input: AirdropInput): Promise<{ id: number }> {
    const clean = sanitizeAirdropInput(input);
    const exists = await this.repo.bySlug(clean.slug, true);
    if (exists) throw errors.conflict(`An airdrop with slug ${clean.slug} exists`);
    const id = await this.db.transaction((tx) =>
      saveAirdrop(tx, this.texts, clean, this.now(), "insert-only"),
    );
    if (id === undefined) throw errors.conflict(`An airdrop with slug ${clean.slug} exists`);
    return { id };
  }

  async update(id: number, input: AirdropInput): Promise<{ id: number }> {
    const clean = sanitizeAirdropInput(input);
    const other = await this.repo.bySlug(clean.slug, true);
    if (other && other.id !== id) throw errors.conflict(`An airdrop with slug ${clean.slug} exists`);
    const ok = await this.db.transaction((tx) => updateAirdrop(tx, this.texts, id, clean, this.now()));
    if (!ok) throw errors.notFound("No such airdrop");
    return { id };
  }

  async publish(id: number, published: boolean): Promise<{ id: number; published: boolean }> {
    const ok = await this.db.transaction((tx) => setAirdropPublished(tx, id, published, this.now()));
    if (!ok) throw errors.notFound("No such airdrop");
    return { id, published };
  }

  /** A news item's stored translations (locale -> field -> text), for the editor's language switch. */
  async adminNewsTranslations(
    id: number,
  ): Promise<{ id: number; translations: Record<string, Record<string, unknown>> }> {
    const exists = (await this.repo.allNews()).some((n) => n.id === id);
    if (!exists) throw errors.notFound("No such news item");
    return { id, translations: await this.repo.allTranslations("news", id) };
  }

  async saveNews(input: AirdropNewsInput, id?: number): Promise<{ id: number }> {
    const clean = sanitizeNewsInput(input);
    try {
      const saved = await this.db.transaction((tx) =>
        saveNews(tx, this.texts, clean, this.now(), "upsert", id),
      );
      if (saved === undefined) throw errors.notFound("No such news item");
      return { id: saved };
    } catch (error) {
      if (error instanceof UnknownAirdropError) throw errors.notFound(`No airdrop with slug ${error.slug}`);
      throw error;
    }
  }

  async publishNews(id: number, published: boolean): Promise<{ id: number; published: boolean }> {
    const ok = await this.db.transaction((tx) => setNewsPublished(tx, id, published, this.now()));
    if (!ok) throw errors.notFound("No such news item");
    return { id, published };
  }
}
