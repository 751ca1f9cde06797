import { PAGE_META_PATH, pageMetaQuerySchema } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { route } from "../../platform/http/route.ts";
import type { Platform } from "../../platform/platform.ts";
import { queryPageMeta } from "./service.ts";

/** `POST /v1/mix/public/getTdkMltQueryList`: page titles, descriptions and keywords. */
export function routes(app: FastifyInstance, platform: Platform): void {
  route(app, {
    method: "POST",
    url: PAGE_META_PATH,
    body: pageMetaQuerySchema,
    handler: ({ body }) => queryPageMeta(platform.db, body.locale, body.pageKeys),
  });
}
