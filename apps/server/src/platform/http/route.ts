import { ok, type SignModeValue } from "@meridian/contracts";
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HTTPMethods,
  RouteShorthandOptions,
} from "fastify";
import type { z } from "zod";
import { errors } from "../errors.ts";
import type { RateLimiter, RateLimitRule } from "../rate-limit.ts";

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteInput<B, Q, P> {
  body: Infer<B>;
  query: Infer<Q>;
  params: Infer<P>;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteSpec<B, Q, P, R> {
  method: HTTPMethods | HTTPMethods[];
  /** Full path, `/v1/...`. */
  url: string;
  body?: B;
  query?: Q;
  params?: P;
  /** Per-client limit; the key defaults to route + client IP. */
  rateLimit?: RateLimitRule & { key?: (request: FastifyRequest) => string };
  /** Runs before validation: authentication, authorisation (throw errors.unauthenticated()). */
  auth?: (request: FastifyRequest, reply: FastifyReply) => Promise<void> | void;
  /**
   * Gateway sign mode (SPEC section 7) this route requires: every state-changing route of
   * trading, assets and account security declares one (2: path, time, trace id, body).
   */
  sign?: SignModeValue;
  /** Route config (e.g. `{ fastImage: false }`). */
  config?: RouteShorthandOptions["config"];
  /** Overrides the server body limit (bytes) for this route. */
  bodyLimit?: number;
  /** Returns `data`; wrapped as `{code: "00000", msg: "success", data}`. */
  handler(input: RouteInput<B, Q, P>): Promise<R> | R;
}

declare module "fastify" {
  interface FastifyInstance {
    rateLimiter: import("../rate-limit.ts").RateLimiter;
  }
}

/**
 * Declares one `/v1` route: zod validation of body, query and params (a failure
 * answers 10422 naming the field), optional rate limit, and the success envelope.
 *
 * ```ts
 * route(app, {
 *   method: "POST",
 *   url: "/v1/tg-apps/rate",
 *   body: z.object({ appId: z.string(), stars: z.int().min(1).max(5) }),
 *   rateLimit: { limit: 5, windowMs: 60_000 },
 *   handler: ({ body }) => service.rate(body),
 * });
 * ```
 */
export function route<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
  R = unknown,
>(app: FastifyInstance, spec: RouteSpec<B, Q, P, R>): void {
  const limiter: RateLimiter | undefined = spec.rateLimit ? app.rateLimiter : undefined;
  const rule = spec.rateLimit;
  const onRequest =
    limiter && rule
      ? async (request: FastifyRequest, reply: FastifyReply) => {
          const key = rule.key ? rule.key(request) : `${spec.url}:${request.ip}`;
          const hit = await limiter.hit(key, rule);
          reply.header("x-ratelimit-limit", String(rule.limit));
          reply.header("x-ratelimit-remaining", String(hit.remaining));
          if (!hit.allowed) throw errors.tooManyRequests(hit.resetMs);
        }
      : undefined;
  app.route({
    method: spec.method,
    url: spec.url,
    ...(spec.bodyLimit === undefined ? {} : { bodyLimit: spec.bodyLimit }),
    ...(spec.config === undefined && spec.sign === undefined
      ? {}
      : { config: { ...spec.config, ...(spec.sign === undefined ? {} : { sign: spec.sign }) } }),
    ...(onRequest === undefined ? {} : { onRequest }),
    ...(spec.auth === undefined ? {} : { preValidation: spec.auth }),
    schema: {
      ...(spec.body === undefined ? {} : { body: spec.body }),
      ...(spec.query === undefined ? {} : { querystring: spec.query }),
      ...(spec.params === undefined ? {} : { params: spec.params }),
    },
    handler: async (request, reply) => {
      const data = await spec.handler({
        body: (spec.body === undefined ? undefined : request.body) as Infer<B>,
        query: (spec.query === undefined ? undefined : request.query) as Infer<Q>,
        params: (spec.params === undefined ? undefined : request.params) as Infer<P>,
        request,
        reply,
      });
      return ok(data === undefined ? null : data);
    },
  });
}
