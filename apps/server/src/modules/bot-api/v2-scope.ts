import crypto from "node:crypto";
import type { ApiKeyPermission } from "@meridian/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { RateLimiter, RateLimitRule } from "../../platform/rate-limit.ts";
import type { ReplayStore } from "../gateway-sign/index.ts";
import { BitgetCode, BitgetError, failure, NOT_FOUND_MSG, success, toBitget } from "./bitget.ts";
import { type ApiKeyStore, ipAllowed, type ResolvedKey } from "./keys.ts";
import { candidates, SIGN_WINDOW_MS, verifyHmac, verifyRsa } from "./signature.ts";

/** Who a signed request acts for: the key and the paper account it trades. */
export interface Caller {
  key: ResolvedKey;
  /** The paper account's user (the key's owner). */
  userId: string;
  accountId: number;
  vipLevel: number;
}

export interface V2Input {
  request: FastifyRequest;
  /** Query parameters (last value wins). */
  query: Record<string, string>;
  /** The parsed JSON body (POST), or {}. */
  body: Record<string, unknown>;
}

/** Bitget's per-endpoint limit classes, in requests per second. */
export type LimitClass = "public" | "trade" | "query";
const LIMITS: Readonly<Record<LimitClass, number>> = { public: 20, trade: 10, query: 20 };
/** Every private call from one address, per second (Bitget: 6000 per minute per IP). */
const IP_LIMIT = 100;

export interface V2Deps {
  keys: ApiKeyStore;
  rateLimiter: RateLimiter;
  /** Multiplies every limit (benchmarks on one address); default 1. */
  rateScale: number;
  now: () => number;
  /** Signed requests already served (Redis when REDIS_URL is set, else this process). */
  replays: ReplayStore;
  /** The paper account id and VIP level of the key's owner. */
  account(owner: ResolvedKey["owner"]): Promise<{ accountId: number; vipLevel: number }>;
}

interface RouteOptions {
  /** Permission a signed call needs. */
  perm: ApiKeyPermission;
  limit: Exclude<LimitClass, "public">;
}

export interface V2Router {
  /** A public, unsigned GET (market data), limited per address. */
  open(path: string, handler: (input: V2Input) => unknown): void;
  get(path: string, o: RouteOptions, handler: (input: V2Input, caller: Caller) => unknown): void;
  post(path: string, o: RouteOptions, handler: (input: V2Input, caller: Caller) => unknown): void;
}

/** Every method an unknown `/api/` path is answered 40404 for (HEAD comes with GET). */
const ALL_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

const rawBodies = new WeakMap<FastifyRequest, string>();

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function flatQuery(q: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (q === null || typeof q !== "object") return out;
  for (const [k, v] of Object.entries(q)) {
    const last = Array.isArray(v) ? v[v.length - 1] : v;
    if (typeof last === "string") out[k] = last;
  }
  return out;
}

/**
 * The `/api/v2` (and `/api/v3` probe) scope: Bitget's envelope and codes, the raw body
 * kept for signatures, key verification, rate limits, and a router for the endpoint
 * files. Registered as a child of the API scope with its own parser and handlers.
 */
export async function registerV2Scope(
  parent: FastifyInstance,
  deps: V2Deps,
  build: (router: V2Router) => void,
): Promise<void> {
  // NOTE: prefix "/api": a scope may set its own not-found handler only under its own prefix.
  await parent.register(
    async (scope) => {
      scope.setErrorHandler((error, request, reply) => {
        const answer = toBitget(error);
        if (answer.status >= 500) request.log.error({ err: error }, "bot api request failed");
        return reply.status(answer.status).type("application/json; charset=utf-8").send(answer.body);
      });
      // NOTE: a route, not only a not-found handler: the pages' catch-all (`/*`, SSR)
      // would otherwise answer an unknown `/api/...` path or method with HTML, which ccxt
      // reads as ExchangeNotAvailable and retries forever.
      const unknown = (_request: FastifyRequest, reply: FastifyReply) =>
        reply
          .status(404)
          .type("application/json; charset=utf-8")
          .send(failure(BitgetCode.NOT_FOUND, NOT_FOUND_MSG));
      scope.setNotFoundHandler(unknown);
      scope.route({ method: [...ALL_METHODS], url: "/*", compress: false, handler: unknown });
      scope.route({ method: [...ALL_METHODS], url: "/", compress: false, handler: unknown });
      scope.removeContentTypeParser("application/json");
      scope.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
        const text = body.toString();
        rawBodies.set(request, text);
        if (text.trim() === "") {
          done(null, {});
          return;
        }
        try {
          done(null, JSON.parse(text));
        } catch {
          done(new BitgetError(BitgetCode.PARAM_INVALID, "Request body is not valid JSON"), undefined);
        }
      });

      const limit = async (key: string, perSecond: number) => {
        const rule: RateLimitRule = {
          limit: Math.max(1, Math.round(perSecond * deps.rateScale)),
          windowMs: 1_000,
        };
        const hit = await deps.rateLimiter.hit(`botapi:${key}`, rule);
        if (!hit.allowed) throw new BitgetError(BitgetCode.RATE_LIMIT, "Request Frequency Is Too High", 429);
      };

      const authenticate = async (request: FastifyRequest, perm: ApiKeyPermission): Promise<Caller> => {
        if (header(request, "paptrading") !== "1")
          throw new BitgetError(BitgetCode.ENVIRONMENT, "exchange environment is incorrect");
        const apiKey = header(request, "access-key");
        const sign = header(request, "access-sign");
        const ts = header(request, "access-timestamp");
        const passphrase = header(request, "access-passphrase");
        if (apiKey === undefined || apiKey === "")
          throw new BitgetError(BitgetCode.ACCESS_KEY_EMPTY, "ACCESS_KEY cannot be empty");
        if (sign === undefined || sign === "")
          throw new BitgetError(BitgetCode.SIGN_EMPTY, "ACCESS_SIGN cannot be empty");
        if (ts === undefined || ts === "")
          throw new BitgetError(BitgetCode.TIMESTAMP_EMPTY, "ACCESS_TIMESTAMP cannot be empty");
        if (passphrase === undefined || passphrase === "")
          throw new BitgetError(BitgetCode.PASSPHRASE_EMPTY, "ACCESS_PASSPHRASE cannot be empty");
        if (!/^\d{13}$/.test(ts))
          throw new BitgetError(BitgetCode.TIMESTAMP_INVALID, "Invalid ACCESS_TIMESTAMP");
        if (Math.abs(deps.now() - Number(ts)) > SIGN_WINDOW_MS)
          throw new BitgetError(BitgetCode.TIMESTAMP_EXPIRED, "Request timestamp expired");
        await limit(`ip:${request.ip}`, IP_LIMIT);
        const key = await deps.keys.resolve(apiKey);
        if (key === undefined) throw new BitgetError(BitgetCode.ACCESS_KEY_INVALID, "Invalid ACCESS_KEY");
        if (key.expiresAt !== null && key.expiresAt <= deps.now())
          throw new BitgetError(BitgetCode.ACCESS_KEY_INVALID, "The API key has expired (no IP allow-list)");
        // NOTE: the signature before the passphrase, so that a caller who knows only the
        // key learns nothing about a passphrase guess (docs/security.md, "Bot API keys").
        const [path = "", query = ""] = splitUrl(request.url);
        const texts = candidates(ts, request.method, path, query, rawBodies.get(request) ?? "");
        const ok =
          key.secret !== null
            ? verifyHmac(key.secret, texts, sign)
            : key.rsa !== null && verifyRsa(key.rsa, texts, sign);
        if (!ok) throw new BitgetError(BitgetCode.SIGN_INVALID, "sign signature error");
        if (!deps.keys.passphraseMatches(key, passphrase))
          throw new BitgetError(BitgetCode.PASSPHRASE_WRONG, "apikey/password is incorrect");
        // A signed request is served once: the same key, timestamp and signature again
        // (a captured request replayed within its window) is refused, on every instance.
        if (await deps.replays.seen(replayId(apiKey, ts, sign), REPLAY_TTL_MS))
          throw new BitgetError(BitgetCode.TIMESTAMP_INVALID, "Request already received: sign it again");
        if (!ipAllowed(key, request.ip))
          throw new BitgetError(
            BitgetCode.IP_DENIED,
            `Invalid IP: ${request.ip} is not on this key's allow-list`,
          );
        if (!key.permissions.has(perm)) throw new BitgetError(BitgetCode.PERMISSION, "Incorrect permissions");
        deps.keys.touch(apiKey);
        const account = await deps.account(key.owner);
        return { key, userId: key.owner.id, ...account };
      };

      const inputOf = (request: FastifyRequest): V2Input => {
        const body = request.body;
        return {
          request,
          query: flatQuery(request.query),
          body:
            body !== null && typeof body === "object" && !Array.isArray(body)
              ? (body as Record<string, unknown>)
              : {},
        };
      };
      const add = (method: "GET" | "POST", path: string, run: (request: FastifyRequest) => unknown) =>
        scope.route({
          method,
          url: path,
          // Answers are a few hundred bytes: negotiating an encoding costs more than it saves.
          compress: false,
          handler: async (request: FastifyRequest, reply: FastifyReply) =>
            reply.type("application/json; charset=utf-8").send(success(await run(request))),
        });
      const signed =
        (method: "GET" | "POST") =>
        (path: string, o: RouteOptions, handler: (input: V2Input, caller: Caller) => unknown) =>
          add(method, path, async (request) => {
            const caller = await authenticate(request, o.perm);
            await limit(`key:${o.limit}:${path}:${caller.key.apiKey}`, LIMITS[o.limit]);
            return handler(inputOf(request), caller);
          });
      build({
        open: (path, handler) =>
          add("GET", path, async (request) => {
            await limit(`pub:${path}:${request.ip}`, LIMITS.public);
            return handler(inputOf(request));
          }),
        get: signed("GET"),
        post: signed("POST"),
      });
    },
    { prefix: "/api" },
  );
}

/**
 * How long a served request is remembered: a timestamp is accepted up to the window
 * either side of the server clock, so a request stays replayable for twice the window.
 */
const REPLAY_TTL_MS = 2 * SIGN_WINDOW_MS + 1_000;

/**
 * The replay record of a request: its key, timestamp and the signature's bytes. NOTE: the
 * bytes, not the header's text: Base64 decoding forgives missing padding and stray
 * characters, so one signature has many spellings that all verify.
 */
function replayId(apiKey: string, ts: string, sign: string): string {
  const bytes = Buffer.from(sign, "base64").toString("base64");
  return crypto.createHash("sha256").update(`${apiKey}\n${ts}\n${bytes}`).digest("base64url");
}

function splitUrl(url: string): [string, string] {
  const q = url.indexOf("?");
  return q === -1 ? [url, ""] : [url.slice(0, q), url.slice(q + 1)];
}
