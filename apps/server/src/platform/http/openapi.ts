import { readFileSync } from "node:fs";
import path from "node:path";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { SESSION_COOKIE } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { REPO_ROOT } from "../config.ts";

/** Where the document and its reference page are served. */
export const OPENAPI_PATH = "/v1/openapi.json";
export const API_REFERENCE_PATH = "/api-docs";
const FAVICON = path.join(REPO_ROOT, "apps/web/public/favicon.svg");

/**
 * The `/v1` API as an OpenAPI 3.1 document, built by @fastify/swagger from the routes as
 * they register, with each route's zod schemas (body, query, params) converted by
 * fastify-type-provider-zod (zod's own JSON Schema conversion). Nothing is written by
 * hand: a route added with `route()` appears with its schemas. Must be installed before
 * the modules register their routes. Only `/v1` routes are documented.
 */
export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Meridian API",
        version: "1",
        description:
          "Every answer is an envelope `{code, msg, data}`: code `00000` is success, any other code is " +
          "an error whose meaning is listed in docs/product.md §8. Calls for a user need the session " +
          "cookie; calls that change state also carry a device signature (docs/security.md).",
      },
      components: {
        securitySchemes: {
          session: { type: "apiKey", in: "cookie", name: SESSION_COOKIE },
        },
      },
    },
    transform: (input) => {
      if (!input.url.startsWith("/v1/") || input.url.includes("*"))
        return { schema: { hide: true }, url: input.url };
      const transformed = jsonSchemaTransform(input);
      // Grouped by the path's first segment after /v1 (user, paper, mix...).
      const tag = input.url.split("/")[2] ?? "v1";
      return { ...transformed, schema: { ...transformed.schema, tags: [tag] } };
    },
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) => {
    reply.header("cache-control", "public, max-age=300");
    return app.swagger();
  });
  await app.register(swaggerUi, {
    routePrefix: API_REFERENCE_PATH,
    uiConfig: { docExpansion: "list", deepLinking: true, url: OPENAPI_PATH },
    staticCSP: false,
    logo: { type: "image/svg+xml", content: readFileSync(FAVICON) },
  });
}
