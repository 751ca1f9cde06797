import {
  ADMIN_CONTENT_API,
  PAGE_META_PATH,
  pageMetaInputSchema,
  pageMetaKeyQuerySchema,
  pageMetaQuerySchema,
} from "@meridian/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { errors } from "../../platform/errors.ts";
import { route } from "../../platform/http/route.ts";
import { sameGuardAs } from "../../platform/http/route-table.ts";
import type { Platform } from "../../platform/platform.ts";
import { requireAdmin } from "../accounts/index.ts";
import { deletePageMeta, listPageMeta, putPageMeta } from "./admin.ts";
import { queryPageMeta } from "./service.ts";

/** The accounts module's admin guard, in the shape `route()` takes. */
const adminOnly = sameGuardAs(async function adminOnly(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  await requireAdmin.call(request.server, request, reply);
}, requireAdmin);

/**
 * `POST /v1/mix/public/getTdkMltQueryList`: page titles, descriptions and keywords.
 * `/v1/admin/page-meta`: the rows behind it, listed, written and removed by administrators.
 */
export function routes(app: FastifyInstance, platform: Platform): void {
  route(app, {
    method: "POST",
    url: PAGE_META_PATH,
    body: pageMetaQuerySchema,
    handler: ({ body }) => queryPageMeta(platform.db, body.locale, body.pageKeys),
  });
  route(app, {
    method: "GET",
    url: ADMIN_CONTENT_API.pageMeta,
    auth: adminOnly,
    handler: () => listPageMeta(platform.db),
  });
  route(app, {
    method: "PUT",
    url: ADMIN_CONTENT_API.pageMeta,
    auth: adminOnly,
    body: pageMetaInputSchema,
    handler: ({ body }) => putPageMeta(platform.db, body, Date.now()),
  });
  route(app, {
    method: "DELETE",
    url: ADMIN_CONTENT_API.pageMeta,
    auth: adminOnly,
    query: pageMetaKeyQuerySchema,
    handler: async ({ query }) => {
      if (!(await deletePageMeta(platform.db, query.pageKey, query.locale)))
        throw errors.notFound("No such page metadata row");
      return { pageKey: query.pageKey, locale: query.locale };
    },
  });
}
