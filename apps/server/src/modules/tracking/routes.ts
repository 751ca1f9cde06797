import {
  type AnalyticsQuery,
  analyticsQuerySchema,
  type ClientCommonConfig,
  SESSION_COOKIE,
  TRACK_CONFIG_PATH,
  TRACK_REPORT_PATH,
  type TrackingIngestResult,
} from "@meridian/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isbot } from "isbot";
import { z } from "zod";
import { route } from "../../platform/http/route.ts";
import { readCookie, requireAdmin } from "../accounts/index.ts";
import type { TrackingConfig } from "./config.ts";
import { parseUpload } from "./ingest.ts";
import type { AnalyticsService } from "./service.ts";
import type { EventSink } from "./sink.ts";

export interface TrackingRouteDeps {
  config: TrackingConfig;
  sink: EventSink;
  analytics: AnalyticsService;
  now: () => number;
}

async function sessionUserId(request: FastifyRequest): Promise<string | null> {
  const token = readCookie(request, SESSION_COOKIE);
  if (token === undefined || !request.server.hasDecorator("accounts")) return null;
  return (await request.server.accounts.service.sessionUserId(token)) ?? null;
}

function header(request: FastifyRequest, name: string): string {
  const value = request.headers[name];
  return typeof value === "string" ? value : "";
}

/** Ingest (SDK upload and its config call) and the admin-only dashboard aggregates. */
export function trackingRoutes(api: FastifyInstance, deps: TrackingRouteDeps): void {
  route(api, {
    method: ["POST", "GET"],
    url: TRACK_CONFIG_PATH,
    config: { fastImage: false },
    handler: async ({ request }): Promise<ClientCommonConfig> => ({
      clientCommonConfig: {
        eventLogUploadSwitch: deps.config.uploadSwitch,
        userId: await sessionUserId(request),
      },
      localVo: { ip: request.ip },
    }),
  });

  // Uploads come as application/json (fetch, and the SDK's beacon Blob), text/plain
  // (a beacon of a bare string) or without a type: every body is read as text here and
  // parsed by the ingest, which tells malformed JSON from invalid events.
  void api.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));
    route(scope, {
      method: "POST",
      url: TRACK_REPORT_PATH,
      bodyLimit: deps.config.bodyLimit,
      config: { fastImage: false },
      handler: async ({ request }): Promise<TrackingIngestResult> => {
        const text = typeof request.body === "string" ? request.body : "";
        const upload = parseUpload(text);
        await deps.sink.accept({
          records: upload.records,
          split: upload.split,
          meta: {
            receivedAt: deps.now(),
            isBot: isbot(header(request, "user-agent")),
            ip: request.ip,
            pfb: header(request, "pfb"),
          },
        });
        return { received: upload.received, accepted: upload.records.length, rejected: upload.rejected };
      },
    });
  });

  const query = analyticsQuerySchema;
  const admin = {
    auth: async (request: FastifyRequest, reply: FastifyReply) => {
      await requireAdmin.call(api, request, reply);
    },
    config: { fastImage: false },
  };
  route(api, {
    ...admin,
    method: "GET",
    url: "/v1/analytics/overview",
    query,
    handler: ({ query: q }) => deps.analytics.overview(q as AnalyticsQuery),
  });
  route(api, {
    ...admin,
    method: "GET",
    url: "/v1/analytics/content",
    query,
    handler: ({ query: q }) => deps.analytics.content(q as AnalyticsQuery),
  });
  route(api, {
    ...admin,
    method: "GET",
    url: "/v1/analytics/audience",
    query,
    handler: ({ query: q }) => deps.analytics.audience(q as AnalyticsQuery),
  });
  route(api, {
    ...admin,
    method: "GET",
    url: "/v1/analytics/realtime",
    query: z.object({ lang: z.coerce.number().int().optional() }),
    handler: ({ query: q }) => deps.analytics.realtime(q.lang),
  });
}
