import {
  AIRDROPS_API,
  airdropInputSchema,
  airdropListQuerySchema,
  airdropLocaleQuerySchema,
  airdropNewsInputSchema,
  airdropNewsListQuerySchema,
  airdropPublishBodySchema,
  airdropSlugParamsSchema,
  Header,
} from "@meridian/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { route } from "../../platform/http/route.ts";
import { sameGuardAs } from "../../platform/http/route-table.ts";
import type { Platform } from "../../platform/platform.ts";
import { requireAdmin } from "../accounts/index.ts";
import type { MarketService } from "../market/index.ts";
import { mediaImages } from "../media/index.ts";
import { AirdropsService } from "./service.ts";
import type { AirdropTexts } from "./texts.ts";

/** The accounts module's admin guard, in the shape `route()` takes. */
const adminOnly = sameGuardAs(async function adminOnly(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  await requireAdmin.call(request.server, request, reply);
}, requireAdmin);

const idParams = z.object({ id: z.coerce.number().int().min(1) });

/** The request's locale: `?locale=`, else the client's `locale` header. */
function localeOf(request: FastifyRequest, query: { locale?: string | undefined }): string | undefined {
  const header = request.headers[Header.LOCALE];
  return query.locale ?? (typeof header === "string" ? header : undefined);
}

/**
 * Public reads under `/v1/content/airdrops/...` (content pages are open to anonymous
 * visitors, docs/product.md §6) and administrator writes under `/v1/admin/...`.
 */
export function airdropsRoutes(app: FastifyInstance, service: AirdropsService): void {
  // Logos in lists, every image on the detail page (modules/media).
  const images = mediaImages(app);
  route(app, {
    method: "GET",
    url: AIRDROPS_API.list,
    query: airdropListQuerySchema,
    handler: async ({ query, request }) => {
      const result = await service.list({ ...query, locale: localeOf(request, query) });
      return { ...result, items: await images.logos("airdrop", result.items) };
    },
  });
  route(app, {
    method: "GET",
    url: AIRDROPS_API.home,
    query: airdropLocaleQuerySchema,
    handler: async ({ query, request }) => {
      const result = await service.home(localeOf(request, query));
      return { ...result, featured: await images.logos("airdrop", result.featured) };
    },
  });
  route(app, {
    method: "GET",
    url: AIRDROPS_API.news,
    query: airdropNewsListQuerySchema,
    handler: ({ query, request }) => service.newsList(localeOf(request, query), query.page, query.pageSize),
  });
  route(app, {
    method: "GET",
    url: `${AIRDROPS_API.newsDetail}:slug`,
    params: airdropSlugParamsSchema,
    query: airdropLocaleQuerySchema,
    handler: ({ params, query, request }) => service.newsDetail(params.slug, localeOf(request, query)),
  });
  route(app, {
    method: "GET",
    url: `${AIRDROPS_API.detail}:slug`,
    params: airdropSlugParamsSchema,
    query: airdropLocaleQuerySchema,
    handler: async ({ params, query, request }) => {
      const result = await service.detail(params.slug, localeOf(request, query));
      const [airdrop, others, around] = await Promise.all([
        images.full("airdrop", result.airdrop),
        images.logos("airdrop", result.others),
        images.logos(
          "airdrop",
          [result.previous, result.next].filter((a) => a !== null),
        ),
      ]);
      const logoOf = (a: typeof result.previous) =>
        a === null ? null : (around.find((x) => x.slug === a.slug) ?? a);
      return { ...result, airdrop, others, previous: logoOf(result.previous), next: logoOf(result.next) };
    },
  });
  route(app, {
    method: "GET",
    url: AIRDROPS_API.index,
    query: airdropLocaleQuerySchema,
    handler: ({ query, request }) => service.index(localeOf(request, query)),
  });

  // Administrators only (the accounts module's guard: admin role, same-origin writes).
  route(app, {
    method: "GET",
    url: AIRDROPS_API.adminAirdrops,
    auth: adminOnly,
    handler: () => service.adminList(),
  });
  route(app, {
    method: "GET",
    url: `${AIRDROPS_API.adminAirdrops}/:slug`,
    auth: adminOnly,
    params: airdropSlugParamsSchema,
    handler: ({ params }) => service.adminGet(params.slug),
  });
  route(app, {
    method: "POST",
    url: AIRDROPS_API.adminAirdrops,
    auth: adminOnly,
    body: airdropInputSchema,
    handler: ({ body }) => service.create(body),
  });
  route(app, {
    method: "PUT",
    url: `${AIRDROPS_API.adminAirdrops}/:id`,
    auth: adminOnly,
    params: idParams,
    body: airdropInputSchema,
    handler: ({ params, body }) => service.update(params.id, body),
  });
  route(app, {
    method: "POST",
    url: `${AIRDROPS_API.adminAirdrops}/:id/publish`,
    auth: adminOnly,
    params: idParams,
    body: airdropPublishBodySchema,
    handler: ({ params, body }) => service.publish(params.id, body.published),
  });
  route(app, {
    method: "POST",
    url: AIRDROPS_API.adminNews,
    auth: adminOnly,
    body: airdropNewsInputSchema,
    handler: ({ body }) => service.saveNews(body),
  });
  route(app, {
    method: "GET",
    url: `${AIRDROPS_API.adminNews}/:id`,
    auth: adminOnly,
    params: idParams,
    handler: ({ params }) => service.adminNewsTranslations(params.id),
  });
  route(app, {
    method: "PUT",
    url: `${AIRDROPS_API.adminNews}/:id`,
    auth: adminOnly,
    params: idParams,
    body: airdropNewsInputSchema,
    handler: ({ params, body }) => service.saveNews(body, params.id),
  });
  route(app, {
    method: "POST",
    url: `${AIRDROPS_API.adminNews}/:id/publish`,
    auth: adminOnly,
    params: idParams,
    body: airdropPublishBodySchema,
    handler: ({ params, body }) => service.publishNews(params.id, body.published),
  });
}

export interface AirdropsModuleOptions {
  /** Where the translations and the home FAQ are kept: the content module's `contentTexts`. */
  texts: AirdropTexts;
  /**
   * Prices and the popular coins come from the market-data service when it runs (its pairs
   * include the tokens of listed airdrops: listed-tokens.ts); unset: no prices.
   */
  market?: () => MarketService | undefined;
}

/** The module entry for `src/modules/index.ts`. */
export function airdropsModule(options: AirdropsModuleOptions) {
  return (app: FastifyInstance, platform: Platform): void => routes(app, platform, options);
}

function routes(app: FastifyInstance, platform: Platform, options: AirdropsModuleOptions): void {
  const market = options.market ?? (() => undefined);
  const service = new AirdropsService({
    db: platform.db,
    texts: options.texts,
    prices: async (symbols) => (await market()?.prices(symbols)) ?? new Map(),
    coins: (limit) =>
      market()
        ?.caps(limit)
        .map((c) => ({
          symbol: c.base,
          name: c.name,
          price: c.price,
          marketCap: c.marketCap,
          change24h: c.priceChangePercent,
          // a listed instrument: its pair opens the spot page
          marketSymbol: c.symbol,
        })),
  });
  airdropsRoutes(app, service);
}
