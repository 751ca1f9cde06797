import crypto from "node:crypto";
import { Readable } from "node:stream";
import {
  Code,
  encryptedBodySchema,
  fail,
  type GatewaySignConfig,
  initSignPayload,
  isEncryptedPath,
  NOT_OFFERED_LOGIN_PATHS,
  ok,
  SENSITIVE_FIELDS,
  SESSION_COOKIE,
  SignHeader,
  signModeFor,
} from "@meridian/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { BusinessError } from "../../platform/errors.ts";
import { sendEdgeAnswer } from "../../platform/http/api-edge.ts";
import { readCookie } from "../../platform/http/cookies.ts";
import { canonicalPathOf } from "../../platform/http/path-edge.ts";
import { jsonBodyKept, rawBodyOf } from "../../platform/http/raw-body.ts";
import { type RouteEntry, samplePath } from "../../platform/http/route-table.ts";
import { presentSignConfig, type SignSettings, type SignUrls, signUrls } from "./config.ts";
import { deviceKeyId, isDeviceAlgorithm, verifyDeviceSignature } from "./device-key.ts";
import type { ServerKeys } from "./keys.ts";
import { decryptFailed, decryptLoginFields } from "./login-crypto.ts";
import type { ReplayStore } from "./replay.ts";
import { type BoundKey, verifySignedRequest } from "./verify.ts";

export interface GatewaySignDeps {
  settings: SignSettings;
  keys: ServerKeys;
  replay: ReplayStore;
  /** The key bound to a session token: undefined for no valid session, null for a session bound to none. */
  sessionKey(token: string, request: FastifyRequest): Promise<BoundKey | null | undefined>;
  /** Plain (unencrypted) login bodies accepted: off unless a test or a tool needs it. */
  allowPlainLogin?: boolean;
  now?: () => number;
}

const rawBodies = new WeakMap<FastifyRequest, Buffer>();
const devices = new WeakMap<FastifyRequest, BoundKey>();
const receivedAt = new WeakMap<FastifyRequest, number>();
const RAW_LIMIT = 1_048_576;
/** Paths whose sign mode `registerGatewaySign` remembers at once. */
const MODE_MEMO = 1024;
const CIPHER_FIELDS = new Set([
  "bodyCiphertext",
  "cipherKey",
  "cipherIv",
  "cipherAlg",
  "cipherTime",
  "publicKey",
  "algorithm",
  "initSign",
]);

/** The device key a login request proved it holds (bound to the session it creates). */
export function deviceOf(request: FastifyRequest): BoundKey | undefined {
  return devices.get(request);
}

function signFailure(reply: FastifyReply, reason: string, code: string, msg: string): FastifyReply {
  return reply.header(SignHeader.SIGN_ERROR, reason).send(fail(code, msg));
}

/**
 * Adds the gateway's hooks to the ROOT instance (so they run for every module's routes)
 * and the sign-config route.
 *
 * NOTE: call this before other modules register their routes.
 */
export function registerGatewaySign(app: FastifyInstance, deps: GatewaySignDeps): void {
  const now = deps.now ?? Date.now;
  const { settings } = deps;
  // Derived from the route table once every route is registered (onReady), so the
  // config the client reads and the modes the server checks are the same table.
  let urls: SignUrls | undefined;
  let config: GatewaySignConfig | undefined;
  const derive = (): SignUrls => {
    if (urls === undefined) {
      urls = signUrls(app.routeTable, settings);
      config = presentSignConfig(settings, deps.keys, urls);
      // The table reports what is checked: covered siblings of signed routes included.
      for (const entry of app.routeTable as RouteEntry[])
        entry.sign = settings.open ? signModeFor(urls, samplePath(entry.url)) : undefined;
    }
    return urls;
  };
  app.addHook("onReady", async () => {
    derive();
  });
  // NOTE: every check below reads the canonical path (platform/http/path-edge.ts), the
  // path the router matched; never the raw target.
  // A path's mode is remembered: `signModeFor` walks every prefix route for a path that is
  // not an exact route (every path with an id), and each request asks twice. Paths with
  // ids are many, so the memo holds at most MODE_MEMO and then starts over.
  const modes = new Map<string, number | null>();
  const modeOf = (request: FastifyRequest): number | undefined => {
    const path = canonicalPathOf(request);
    let mode = modes.get(path);
    if (mode === undefined) {
      mode = signModeFor(derive(), path) ?? null;
      if (modes.size >= MODE_MEMO) modes.clear();
      modes.set(path, mode);
    }
    return mode ?? undefined;
  };

  app.addHook("onRequest", async (request) => {
    receivedAt.set(request, Date.now());
  });

  // docs/product.md §7: every answer carries the server time so clients align their clocks.
  app.addHook("onSend", async (_request, reply, payload) => {
    reply.header(SignHeader.REQUEST_TIME, String(now()));
    return payload;
  });

  app.addHook("preParsing", async (request, _reply, payload) => {
    if (!settings.open || modeOf(request) !== 2 || readCookie(request, SESSION_COOKIE) === undefined) {
      return payload;
    }
    // A JSON body of the API is kept as read by its parser (platform/http/raw-body.ts):
    // no copy here. preValidation refuses a parsed body nobody kept the bytes of.
    if (jsonBodyKept(request)) return payload;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of payload) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      size += buf.length;
      if (size > RAW_LIMIT) throw Object.assign(new Error("Request body is too large"), { statusCode: 413 });
      chunks.push(buf);
    }
    const raw = Buffer.concat(chunks);
    rawBodies.set(request, raw);
    return Object.assign(Readable.from([raw]), { receivedEncodedLength: raw.length });
  });

  app.addHook("preValidation", async (request, reply) => {
    if (!settings.open) return;
    const path = canonicalPathOf(request);
    const mode = modeOf(request);
    const token = readCookie(request, SESSION_COOKIE);
    if (mode !== undefined && token !== undefined) {
      const key = await deps.sessionKey(token, request);
      // No valid session: the route's guard answers 00004. A session bound to no key (made
      // where WebCrypto was missing) is not signed; a bound session always is.
      if (key !== undefined && key !== null) {
        const rawBody = rawBodies.get(request) ?? rawBodyOf(request);
        // A body was read but its bytes were not kept: what was signed cannot be told.
        if (mode === 2 && rawBody === undefined && request.body !== undefined)
          return signFailure(reply, "invalid", Code.SIGN_INVALID, "Request signature invalid");
        const verdict = await verifySignedRequest(
          { url: request.url, headers: request.headers, rawBody },
          mode,
          key,
          deps.replay,
          now(),
        );
        if (!verdict.ok) return signFailure(reply, verdict.reason, verdict.code, verdict.msg);
      }
    }
    // The paths Meridian does not offer answer 11010 whatever the body: nothing in it is read.
    const notOffered = (NOT_OFFERED_LOGIN_PATHS as readonly string[]).includes(path);
    if (request.method === "POST" && isEncryptedPath(path) && !notOffered) {
      try {
        await decryptInto(request, path);
      } catch (err) {
        if (err instanceof BusinessError && err.code === Code.SIGN_INVALID)
          reply.header(SignHeader.SIGN_ERROR, "init");
        return sendEdgeAnswer(request, reply, err);
      }
    }
    return undefined;
  });

  async function decryptInto(request: FastifyRequest, path: string): Promise<void> {
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body.bodyCiphertext !== "string") {
      if (deps.allowPlainLogin === true) return;
      throw decryptFailed();
    }
    const parsed = encryptedBodySchema.safeParse(body);
    if (!parsed.success) throw decryptFailed();
    const e = parsed.data;
    const fields = await decryptLoginFields(path, e, {
      keys: deps.keys,
      algorithm: settings.encryptAlgorithm,
      replay: deps.replay,
      now: now(),
      receivedAt: receivedAt.get(request) ?? Date.now(),
    });
    if (e.publicKey !== undefined && e.algorithm !== undefined && e.initSign !== undefined) {
      const digest = crypto.createHash("sha256").update(e.bodyCiphertext).digest("hex");
      const okSign =
        isDeviceAlgorithm(e.algorithm) &&
        verifyDeviceSignature(
          e.algorithm,
          e.publicKey,
          initSignPayload(path, e.cipherTime, digest),
          e.initSign,
        );
      if (!okSign) {
        throw new BusinessError(Code.SIGN_INVALID, "Device key proof invalid", {
          data: { signError: "init" },
        });
      }
      devices.set(request, { keyId: deviceKeyId(e.publicKey), publicKey: e.publicKey, alg: e.algorithm });
    }
    // Sensitive fields count only from the ciphertext; plain copies in the outer body are dropped.
    const outer = Object.fromEntries(
      Object.entries(body).filter(([k]) => !CIPHER_FIELDS.has(k) && !SENSITIVE_FIELDS.includes(k)),
    );
    request.body = { ...outer, ...fields };
  }

  app.get("/v1/mix/config/gatewaySignConfig", async () => {
    derive();
    return ok({ gatewaySignConfig: config });
  });
}
