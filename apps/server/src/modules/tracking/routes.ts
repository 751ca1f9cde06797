import {
  type AnalyticsQuery,
  analyticsQuerySchema,
  type ClientCommonConfig,
  TRACK_CONFIG_PATH,
  TRACK_REPORT_PATH,
  type TrackingIngestResult,
} from "@meridian/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isbot } from "isbot";
import { z } from "zod";
import { route } from "../../platform/http/route.ts";
import { sameGuardAs } from "../../platform/http/route-table.ts";
import { requireAdmin } from "../accounts/index.ts";
import type { TrackingConfig } from "./config.ts";
import { type ParsedUpload, parseUpload, type UploadMeta } from "./ingest.ts";
import { lazyChildLoggerFactory } from "./lazy-logger.ts";
import type { AnalyticsService } from "./service.ts";
import type { EventSink } from "./sink.ts";

export interface TrackingRouteDeps {
  config: TrackingConfig;
  sink: EventSink;
  analytics: AnalyticsService;
  now: () => number;
  /** The logged-in user of a request that needs no login (the accounts module's, passed by the root). */
  sessionUser: (request: FastifyRequest) => Promise<string | undefined>;
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
        userId: (await deps.sessionUser(request)) ?? null,
      },
      localVo: { ip: request.ip },
    }),
  });

  // Uploads come as application/json (fetch, and the SDK's beacon Blob), text/plain
  // (a beacon of a bare string) or without a type: every body is read as text here and
  // parsed by the ingest, which tells malformed JSON from invalid events.
  // NOTE: nothing of a parsed upload outlives the parse. While the answer waits for the
  // commit (milliseconds, ~30 uploads at a time under load), a body text kept on the
  // request (60 KB) or the parsed events would be copied by every scavenge and promoted
  // to the old generation; so the handler takes the text off the request and keeps only
  // the answer (bench:ingest in alternating runs with a 4 MB young
  // generation: 74-87k -> 81-93k events/s; with V8's default, 2 % more).
  // Request loggers are made on first use (lazy-logger.ts): the same lines, nothing built
  // per upload when the level writes no request lines.
  void api.register(async (scope) => {
    scope.setChildLoggerFactory(lazyChildLoggerFactory);
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));
    route(scope, {
      method: "POST",
      url: TRACK_REPORT_PATH,
      bodyLimit: deps.config.bodyLimit,
      config: { fastImage: false },
      handler: ({ request }): Promise<TrackingIngestResult> => {
        const text = typeof request.body === "string" ? request.body : "";
        request.body = undefined;
        return ingest(parseUpload(text), {
          receivedAt: deps.now(),
          isBot: isbot(header(request, "user-agent")),
          ip: request.ip,
          pfb: header(request, "pfb"),
        });
      },
    });
  });

  /**
   * Stores the upload's valid events; resolves with the answer once they are committed.
   * NOTE: not an async function: one keeps its arguments (here the parsed upload) for as
   * long as it awaits, and so did `sink.accept`. The parsed events of every upload in
   * flight then survived each scavenge: 1.1 MB copied per scavenge instead of 0.1 MB, and
   * twice the GC helper threads' CPU (--trace-gc-nvp under bench:ingest's load, 4 MB young
   * generation).
   */
  function ingest(upload: ParsedUpload, meta: UploadMeta): Promise<TrackingIngestResult> {
    const answer = { received: upload.received, accepted: upload.records.length, rejected: upload.rejected };
    return deps.sink.accept({ records: upload.records, split: upload.split, meta }).then(() => answer);
  }

  const query = analyticsQuerySchema;
  const admin = {
    auth: sameGuardAs(async (request: FastifyRequest, reply: FastifyReply) => {
      await requireAdmin.call(api, request, reply);
    }, requireAdmin),
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
