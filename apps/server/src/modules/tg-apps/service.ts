import {
  TG_APPS_API,
  TG_RATING_LIMIT,
  TgAppCode,
  type TgAppDetail,
  type TgAppDetailResult,
  type TgAppInput,
  type TgAppListQuery,
  type TgAppListResult,
  type TgAppSummary,
  type TgArticle,
  type TgArticleInput,
  type TgArticleSummary,
  type TgArticlesResult,
  type TgRatingResult,
  type TgSitemapEntry,
  type TgSubmission,
  type TgSubmissionBody,
  type TgSubmissionReview,
  tgAppsPath,
} from "@meridian/contracts";
import { getLocale } from "@meridian/contracts/locales";
import { sanitizeUrl } from "@meridian/sanitize";
import { AppError, errors } from "../../platform/errors.ts";
import type { RateLimiter } from "../../platform/rate-limit.ts";
import { cleanStoredHtml } from "../../platform/stored-html.ts";
import type { TgAppsAdminRepo } from "./admin-repo.ts";
import { type AppRecord, type ArticleRecord, type LocaleChain, type TgAppsRepo, tagsOf } from "./repo.ts";

const RAIL_SIZE = 6;

/** The request locale and its content base (es-AR reads es), English underneath. */
export function localeChain(code: string): LocaleChain {
  const entry = getLocale(code);
  return [entry.code, entry.content];
}

/** `https://t.me/<bot>?start=<param>` through the URL allow-list ("" when refused). */
export function openUrlOf(botUsername: string, startParam: string): string {
  const query = startParam === "" ? "" : `?start=${encodeURIComponent(startParam)}`;
  return sanitizeUrl(`https://t.me/${encodeURIComponent(botUsername)}${query}`);
}

function ratingOf(sum: number, count: number): number {
  return count === 0 ? 0 : Math.round((sum / count) * 10) / 10;
}

/** The language texts come from: the first of the locale chain the item is written in, else English. */
export function textLocale(locales: LocaleChain, written: readonly string[]): string {
  return locales.find((l) => written.includes(l)) ?? "en";
}

/** Languages every list names ("en" always). */
export function commonLanguages(lists: readonly (readonly string[])[]): string[] {
  const [first = ["en"], ...rest] = lists;
  return first.filter((l) => rest.every((list) => list.includes(l)));
}

export function presentSummary(app: AppRecord): TgAppSummary {
  return {
    slug: app.slug,
    name: app.name,
    category: app.category as TgAppSummary["category"],
    shortDescription: app.shortDescription,
    textLocale: app.textLocale,
    iconUrl: sanitizeUrl(app.iconUrl) || tgAppsPath(TG_APPS_API.icon, { slug: app.slug }),
    tags: tagsOf(app),
    rating: ratingOf(app.ratingSum, app.ratingCount),
    ratingCount: app.ratingCount,
  };
}

function presentDetail(app: AppRecord, locales: LocaleChain, contentLanguages: string[]): TgAppDetail {
  return {
    ...presentSummary(app),
    // Stored clean (cleanStoredHtml on write, refreshStoredHtml when the sanitiser changes).
    longDescription: app.longDescription,
    openUrl: openUrlOf(app.botUsername, app.startParam),
    website: sanitizeUrl(app.website),
    screenshots: app.screenshots.map((s) => sanitizeUrl(s)).filter((s) => s !== ""),
    languages: app.languages,
    platforms: app.platforms,
    tokenLaunch: app.tokenLaunch,
    listedAt: app.listedAt,
    updatedAt: app.updatedAt,
    contentLocale: textLocale(locales, contentLanguages),
    contentLanguages,
  };
}

function presentArticleSummary(a: ArticleRecord): TgArticleSummary {
  return {
    slug: a.slug,
    appSlug: a.appSlug,
    appName: a.appName,
    title: a.title,
    summary: a.summary,
    textLocale: a.textLocale,
    publishedAt: a.publishedAt,
  };
}

function presentArticle(a: ArticleRecord): TgArticle {
  return { ...presentArticleSummary(a), body: a.body };
}

/** Default screenshots of an app that has none of its own: generated artwork. */
export function generatedScreenshots(slug: string, count = 4): string[] {
  return Array.from({ length: count }, (_, i) =>
    tgAppsPath(TG_APPS_API.screenshot, { slug, n: `${i + 1}.svg` }),
  );
}

export interface TgAppsServiceDeps {
  repo: TgAppsRepo;
  admin: TgAppsAdminRepo;
  limiter: RateLimiter;
  now?: () => number;
}

/** Business rules of the Apps and Bot Center. */
export class TgAppsService {
  readonly #repo: TgAppsRepo;
  readonly #admin: TgAppsAdminRepo;
  readonly #limiter: RateLimiter;
  readonly #now: () => number;

  constructor(deps: TgAppsServiceDeps) {
    this.#repo = deps.repo;
    this.#admin = deps.admin;
    this.#limiter = deps.limiter;
    this.#now = deps.now ?? Date.now;
  }

  async list(query: TgAppListQuery): Promise<TgAppListResult> {
    const locales = localeChain(query.locale);
    const [{ items, total }, totalApps] = await Promise.all([
      this.#repo.list(
        { tab: query.tab, q: query.q, limit: query.pageSize, offset: (query.page - 1) * query.pageSize },
        locales,
      ),
      this.#repo.countPublished(),
    ]);
    return { items: items.map(presentSummary), total, totalApps, page: query.page, pageSize: query.pageSize };
  }

  /**
   * The detail page's data; counts one visit in the module's own counter, which the
   * rankings read only while the tracker has no page views (see visits.ts).
   */
  async detail(slug: string, locale: string, userId: string | undefined): Promise<TgAppDetailResult> {
    const locales = localeChain(locale);
    const app = await this.#repo.bySlug(slug, locales);
    if (app === undefined) throw errors.notFound("No such app");
    await this.#repo.countVisit(app.id);
    const [related, latest, alike, myRating, written] = await Promise.all([
      this.#repo.articlesOfApp(app.id, locales, RAIL_SIZE),
      this.#repo.latestArticles(RAIL_SIZE, locales, app.id),
      this.#repo.pick({ category: app.category, excludeIds: [app.id], order: "rating" }, RAIL_SIZE, locales),
      userId === undefined ? Promise.resolve(null) : this.#repo.myRating(app.id, userId),
      this.#repo.contentLanguages("app", [app.id]),
    ]);
    const seen = [app.id, ...alike.map((a) => a.id)];
    const hot = await this.#repo.pick({ excludeIds: seen, order: "hot" }, RAIL_SIZE, locales);
    const more = await this.#repo.pick(
      { excludeIds: [...seen, ...hot.map((a) => a.id)], order: "recent" },
      RAIL_SIZE,
      locales,
    );
    const contentLanguages = written.get(app.id) ?? ["en"];
    const detail = presentDetail(app, locales, contentLanguages);
    if (detail.screenshots.length === 0) detail.screenshots = generatedScreenshots(app.slug);
    return {
      app: detail,
      relatedArticles: related.map(presentArticleSummary),
      latestArticles: latest.map(presentArticleSummary),
      youMightAlsoLike: alike.map(presentSummary),
      hotApps: hot.map(presentSummary),
      moreApps: more.map(presentSummary),
      myRating,
    };
  }

  async articles(slug: string, locale: string): Promise<TgArticlesResult> {
    const locales = localeChain(locale);
    const app = await this.#repo.bySlug(slug, locales);
    if (app === undefined) throw errors.notFound("No such app");
    const articles = await this.#repo.articlesOfApp(app.id, locales);
    const written = await this.#repo.contentLanguages(
      "article",
      articles.map((a) => a.id),
    );
    const contentLanguages = commonLanguages(articles.map((a) => written.get(a.id) ?? ["en"]));
    return {
      app: presentSummary(app),
      articles: articles.map(presentArticle),
      contentLocale: textLocale(locales, contentLanguages),
      contentLanguages,
    };
  }

  /** Name and colours of an app for its generated artwork; undefined when unknown. */
  async artworkName(slug: string): Promise<string | undefined> {
    return (await this.#repo.bySlug(slug, ["en", "en"]))?.name;
  }

  /**
   * Stores the user's stars (replacing an earlier rating of this app) within the
   * per-user frequency limit TG_RATING_LIMIT, counted across apps.
   *
   * NOTE: the limiter's hit is atomic (one in-process map update, or one Redis Lua
   * script), so N concurrent requests admit exactly `limit` of them; it counts before
   * the write, so a rating that then fails still uses its slot.
   */
  async rate(slug: string, userId: string, stars: number): Promise<TgRatingResult> {
    const appId = await this.#repo.appIdBySlug(slug);
    if (appId === undefined) throw errors.notFound("No such app");
    const hit = await this.#limiter.hit(`tg-rating:${userId}`, TG_RATING_LIMIT);
    if (!hit.allowed) {
      throw new AppError(TgAppCode.RATING_TOO_FREQUENT, "Exceeds the frequency", {
        status: 429,
        headers: { "retry-after": String(Math.max(1, Math.ceil(hit.resetMs / 1000))) },
        data: { retryAfterMs: hit.resetMs },
      });
    }
    const agg = await this.#repo.rate(appId, userId, stars);
    return { stars, rating: ratingOf(agg.ratingSum, agg.ratingCount), ratingCount: agg.ratingCount };
  }

  async submit(body: TgSubmissionBody, userId: string | null): Promise<{ id: number }> {
    return { id: await this.#admin.insertSubmission(body, userId, this.#now()) };
  }

  async sitemap(): Promise<TgSitemapEntry[]> {
    const [rows, articleIds] = await Promise.all([this.#repo.sitemap(), this.#repo.articleIdsByApp()]);
    const [apps, articles] = await Promise.all([
      this.#repo.contentLanguages(
        "app",
        rows.map((r) => r.id),
      ),
      this.#repo.contentLanguages("article", [...articleIds.values()].flat()),
    ]);
    return rows.map((r) => ({
      slug: r.slug,
      updatedAt: r.updatedAt,
      hasArticles: r.articles > 0,
      contentLanguages: apps.get(r.id) ?? ["en"],
      articleLanguages: commonLanguages(
        (articleIds.get(r.slug) ?? []).map((id) => articles.get(id) ?? ["en"]),
      ),
    }));
  }

  // ---- administration ----

  listAppsAdmin() {
    return this.#admin.listApps();
  }

  async appInput(slug: string): Promise<TgAppInput> {
    const input = await this.#admin.appInput(slug);
    if (input === undefined) throw errors.notFound("No such app");
    return input;
  }

  async saveApp(input: TgAppInput): Promise<{ slug: string }> {
    await this.#admin.saveApp(sanitizeAppInput(input), this.#now());
    return { slug: input.slug };
  }

  async deleteApp(slug: string): Promise<null> {
    if (!(await this.#admin.deleteApp(slug))) throw errors.notFound("No such app");
    return null;
  }

  listArticlesAdmin() {
    return this.#admin.listArticles();
  }

  async saveArticle(input: TgArticleInput): Promise<{ slug: string }> {
    const id = await this.#admin.saveArticle(sanitizeArticleInput(input), this.#now());
    if (id === undefined) throw errors.notFound("No such app");
    return { slug: input.slug };
  }

  async articleInput(slug: string): Promise<TgArticleInput> {
    const input = await this.#admin.articleInput(slug);
    if (input === undefined) throw errors.notFound("No such article");
    return input;
  }

  async deleteArticle(slug: string): Promise<null> {
    if (!(await this.#admin.deleteArticle(slug))) throw errors.notFound("No such article");
    return null;
  }

  listSubmissions(): Promise<TgSubmission[]> {
    return this.#admin.listSubmissions();
  }

  /** Approving creates an unpublished-by-nobody app from the submission (published, no editor's pick). */
  async review(id: number, review: TgSubmissionReview): Promise<{ status: string; appSlug: string | null }> {
    const now = this.#now();
    return this.#admin.db.transaction(async (tx) => {
      const sub = await this.#admin.submission(tx, id);
      if (sub === undefined) throw errors.notFound("No such submission");
      if (sub.status !== "pending") throw errors.conflict("Submission already reviewed");
      if (review.decision === "reject") {
        await this.#admin.closeSubmission(tx, id, "rejected", null, now);
        return { status: "rejected", appSlug: null };
      }
      const slug = review.slug ?? slugify(sub.name);
      const appId = await this.#admin.saveApp(
        sanitizeAppInput({
          slug,
          name: sub.name,
          category: sub.category,
          editorsChoice: false,
          botUsername: sub.botUsername,
          startParam: "",
          website: sub.website,
          iconUrl: "",
          screenshots: [],
          languages: ["en"],
          platforms: ["ios", "android", "desktop", "web"],
          tokenLaunch: false,
          shortDescription: sub.description.slice(0, 300),
          longDescription: escapeHtml(sub.description),
          published: true,
          translations: {},
        }),
        now,
        { onlyIfAbsent: true, tx },
      );
      if (appId === undefined) throw errors.conflict(`An app with slug ${slug} exists already`);
      if (!(await this.#admin.closeSubmission(tx, id, "approved", appId, now))) {
        throw errors.conflict("Submission already reviewed");
      }
      return { status: "approved", appSlug: slug };
    });
  }
}

function escapeHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((p) => `<p>${p.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`)
    .join("");
}

export function slugify(name: string): string {
  const s = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return s === "" ? `app-${Date.now().toString(36)}` : s;
}

/**
 * Rich text through the HTML bounds and allow-list, links through the URL allow-list,
 * before storage: the stored HTML is served as it is.
 */
export function sanitizeAppInput(input: TgAppInput): TgAppInput {
  const translations: TgAppInput["translations"] = {};
  for (const [locale, t] of Object.entries(input.translations)) {
    translations[locale] = {
      ...t,
      ...(t.longDescription === undefined
        ? {}
        : { longDescription: cleanStoredHtml(`translations.${locale}.longDescription`, t.longDescription) }),
    };
  }
  return {
    ...input,
    website: sanitizeUrl(input.website),
    iconUrl: sanitizeUrl(input.iconUrl),
    screenshots: input.screenshots.map((s) => sanitizeUrl(s)).filter((s) => s !== ""),
    longDescription: cleanStoredHtml("longDescription", input.longDescription),
    translations,
  };
}

export function sanitizeArticleInput(input: TgArticleInput): TgArticleInput {
  const translations: TgArticleInput["translations"] = {};
  for (const [locale, t] of Object.entries(input.translations)) {
    translations[locale] = {
      ...t,
      ...(t.body === undefined ? {} : { body: cleanStoredHtml(`translations.${locale}.body`, t.body) }),
    };
  }
  return { ...input, body: cleanStoredHtml("body", input.body), translations };
}
