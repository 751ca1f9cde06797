import {
  SESSION_COOKIE,
  TG_APPS_API,
  TG_SUBMISSION_LIMIT,
  tgAppInputSchema,
  tgAppListQuerySchema,
  tgArticleInputSchema,
  tgLocaleQuerySchema,
  tgRatingBodySchema,
  tgSlugParamsSchema,
  tgSubmissionBodySchema,
  tgSubmissionIdParamsSchema,
  tgSubmissionReviewSchema,
} from "@meridian/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { errors } from "../../platform/errors.ts";
import { route } from "../../platform/http/route.ts";
import { type AccountsService, authOf, readCookie, routeGuards } from "../accounts/index.ts";
import { mediaImages } from "../media/index.ts";
import { iconSvg, screenshotSvg } from "./artwork.ts";
import type { TgAppsService } from "./service.ts";

/** Authenticates a session token (the accounts service, passed by the module list). */
export type SessionAuth = Pick<AccountsService, "authenticate">;

/** The logged-in user's id when the request carries a valid session; never throws. */
async function optionalUserId(
  accounts: SessionAuth | undefined,
  request: FastifyRequest,
): Promise<string | undefined> {
  const token = readCookie(request, SESSION_COOKIE);
  if (token === undefined || token === "" || accounts === undefined) return undefined;
  try {
    return (await accounts.authenticate(token)).user.id;
  } catch {
    return undefined;
  }
}

const screenParams = z.object({
  slug: tgSlugParamsSchema.shape.slug,
  n: z.string().regex(/^[1-8]\.svg$/),
});

/** Public routes (auth -> validate -> service -> present) and the admin area's. */
export function tgAppsRoutes(
  app: FastifyInstance,
  service: TgAppsService,
  accounts: SessionAuth | undefined,
): void {
  const { user, admin } = routeGuards(app);
  // Logos in lists and rails, logo and screenshots on the detail page (modules/media).
  const images = mediaImages(app);

  route(app, {
    method: "GET",
    url: TG_APPS_API.list,
    query: tgAppListQuerySchema,
    handler: async ({ query }) => {
      const result = await service.list(query);
      return { ...result, items: await images.logos("app", result.items) };
    },
  });

  route(app, {
    method: "GET",
    url: TG_APPS_API.sitemap,
    handler: () => service.sitemap(),
  });

  route(app, {
    method: "GET",
    url: TG_APPS_API.detail,
    params: tgSlugParamsSchema,
    query: tgLocaleQuerySchema,
    handler: async ({ params, query, request }) => {
      const result = await service.detail(params.slug, query.locale, await optionalUserId(accounts, request));
      const [app, youMightAlsoLike, hotApps, moreApps] = await Promise.all([
        images.full("app", result.app),
        images.logos("app", result.youMightAlsoLike),
        images.logos("app", result.hotApps),
        images.logos("app", result.moreApps),
      ]);
      return { ...result, app, youMightAlsoLike, hotApps, moreApps };
    },
  });

  route(app, {
    method: "GET",
    url: TG_APPS_API.articles,
    params: tgSlugParamsSchema,
    query: tgLocaleQuerySchema,
    handler: async ({ params, query }) => {
      const result = await service.articles(params.slug, query.locale);
      return { ...result, app: await images.logos("app", [result.app]).then(([a]) => a ?? result.app) };
    },
  });

  route(app, {
    method: "POST",
    url: TG_APPS_API.rating,
    auth: user,
    params: tgSlugParamsSchema,
    body: tgRatingBodySchema,
    handler: ({ params, body, request }) => service.rate(params.slug, authOf(request).user.id, body.stars),
  });

  route(app, {
    method: "POST",
    url: TG_APPS_API.submissions,
    body: tgSubmissionBodySchema,
    rateLimit: TG_SUBMISSION_LIMIT,
    handler: async ({ body, request }) =>
      service.submit(body, (await optionalUserId(accounts, request)) ?? null),
  });

  const svg = (reply: FastifyReply, text: string) =>
    reply
      .header("content-type", "image/svg+xml; charset=utf-8")
      .header("cache-control", "public, max-age=86400")
      .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'")
      .send(text);

  app.get(TG_APPS_API.icon, async (request, reply) => {
    const { slug } = tgSlugParamsSchema.parse(request.params);
    const name = await service.artworkName(slug);
    if (name === undefined) throw errors.notFound("No such app");
    return svg(reply, iconSvg(slug, name));
  });

  app.get(TG_APPS_API.screenshot, async (request, reply) => {
    const { slug, n } = screenParams.parse(request.params);
    const name = await service.artworkName(slug);
    if (name === undefined) throw errors.notFound("No such app");
    return svg(reply, screenshotSvg(slug, name, Number.parseInt(n, 10)));
  });

  // ---- administration (administrators only) ----

  route(app, {
    method: "GET",
    url: TG_APPS_API.adminApps,
    auth: admin,
    handler: () => service.listAppsAdmin(),
  });
  route(app, {
    method: "POST",
    url: TG_APPS_API.adminApps,
    auth: admin,
    body: tgAppInputSchema,
    handler: ({ body }) => service.saveApp(body),
  });
  route(app, {
    method: "GET",
    url: TG_APPS_API.adminApp,
    auth: admin,
    params: tgSlugParamsSchema,
    handler: ({ params }) => service.appInput(params.slug),
  });
  route(app, {
    method: "DELETE",
    url: TG_APPS_API.adminApp,
    auth: admin,
    params: tgSlugParamsSchema,
    handler: ({ params }) => service.deleteApp(params.slug),
  });
  route(app, {
    method: "GET",
    url: TG_APPS_API.adminArticles,
    auth: admin,
    handler: () => service.listArticlesAdmin(),
  });
  route(app, {
    method: "POST",
    url: TG_APPS_API.adminArticles,
    auth: admin,
    body: tgArticleInputSchema,
    handler: ({ body }) => service.saveArticle(body),
  });
  route(app, {
    method: "GET",
    url: TG_APPS_API.adminArticle,
    auth: admin,
    params: tgSlugParamsSchema,
    handler: ({ params }) => service.articleInput(params.slug),
  });
  route(app, {
    method: "DELETE",
    url: TG_APPS_API.adminArticle,
    auth: admin,
    params: tgSlugParamsSchema,
    handler: ({ params }) => service.deleteArticle(params.slug),
  });
  route(app, {
    method: "GET",
    url: TG_APPS_API.adminSubmissions,
    auth: admin,
    handler: () => service.listSubmissions(),
  });
  route(app, {
    method: "POST",
    url: TG_APPS_API.adminSubmission,
    auth: admin,
    params: tgSubmissionIdParamsSchema,
    body: tgSubmissionReviewSchema,
    handler: ({ params, body }) => service.review(params.id, body),
  });
}
