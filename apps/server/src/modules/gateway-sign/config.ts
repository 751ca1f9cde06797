import type { DeviceKeyAlgorithm, EncryptAlgorithm, GatewaySignConfig } from "@meridian/contracts";
import { SIGN_WINDOW_MS, signModeFor } from "@meridian/contracts";
import { z } from "zod";
import { parseEnv } from "../../platform/config.ts";
import { type RouteEntry, samplePath } from "../../platform/http/route-table.ts";
import type { ServerKeys } from "./keys.ts";

const modes = z.record(z.string().startsWith("/"), z.number().int().min(0).max(2));

const envSchema = z.object({
  /** Off: the client neither signs nor encrypts and the server checks neither. */
  GATEWAY_SIGN_OPEN: z.enum(["true", "false"]).default("true"),
  GATEWAY_DEVICE_ALGORITHM: z.enum(["ECDSA_P256", "RSA1024", "RSA2048"]).default("RSA2048"),
  LOGIN_ENCRYPT_ALGORITHM: z
    .enum(["v2-rsa-oaep256-a256gcm", "v1-rsa15-a256cbc"])
    .default("v2-rsa-oaep256-a256gcm"),
  /** JSON objects path -> mode; merged over the modes the routes declare (signUrls). */
  GATEWAY_SIGN_EXACT_URLS: z.string().optional(),
  GATEWAY_SIGN_PREFIX_URLS: z.string().optional(),
});

export interface SignSettings {
  open: boolean;
  defaultAlgorithm: DeviceKeyAlgorithm;
  encryptAlgorithm: EncryptAlgorithm;
  /** Extra signed paths from the environment, merged over the route table's (see signUrls). */
  exactUrls: Record<string, number>;
  prefixUrls: Record<string, number>;
}

export function loadSignSettings(env: NodeJS.ProcessEnv = process.env): SignSettings {
  const e = parseEnv(envSchema, env);
  const parse = (text: string | undefined) => (text === undefined ? {} : modes.parse(JSON.parse(text)));
  return {
    open: e.GATEWAY_SIGN_OPEN === "true",
    defaultAlgorithm: e.GATEWAY_DEVICE_ALGORITHM,
    encryptAlgorithm: e.LOGIN_ENCRYPT_ALGORITHM,
    exactUrls: parse(e.GATEWAY_SIGN_EXACT_URLS),
    prefixUrls: parse(e.GATEWAY_SIGN_PREFIX_URLS),
  };
}

export interface SignUrls {
  exactUrls: Record<string, number>;
  prefixUrls: Record<string, number>;
}

/**
 * The sign config's path tables, derived from the route table: a route with a fixed path
 * signs that exact path; a route with parameters signs the prefix before its first
 * parameter (the config has no method or parameter syntax, so that prefix also covers
 * its siblings, e.g. `/v1/paper/orders/open` under `/v1/paper/orders/`: the client signs
 * those too and the server checks them, by the same table). Environment extras merge
 * over it. Throws when two routes ask different modes of one path: the client could not
 * satisfy both.
 */
export function signUrls(
  table: readonly RouteEntry[],
  extra: SignUrls = { exactUrls: {}, prefixUrls: {} },
): SignUrls {
  const exactUrls: Record<string, number> = {};
  const prefixUrls: Record<string, number> = {};
  for (const r of table) {
    const mode = r.declaredSign;
    if (mode === undefined) continue;
    const param = r.url.search(/\/[:*]/);
    const [target, key] = param < 0 ? [exactUrls, r.url] : [prefixUrls, r.url.slice(0, param + 1)];
    const had = target[key];
    if (had !== undefined && had !== mode)
      throw new Error(
        `sign mode conflict on ${key}: ${r.method} ${r.url} wants ${mode}, another route ${had}`,
      );
    target[key] = mode;
  }
  const merged = {
    exactUrls: { ...exactUrls, ...extra.exactUrls },
    prefixUrls: { ...prefixUrls, ...extra.prefixUrls },
  };
  for (const r of table) {
    if (r.declaredSign === undefined) continue;
    const effective = signModeFor(merged, samplePath(r.url));
    if (effective !== r.declaredSign)
      throw new Error(
        `sign mode conflict: ${r.method} ${r.url} declares ${r.declaredSign}, the config gives ${effective}`,
      );
  }
  return merged;
}

/** `data.gatewaySignConfig` of GET /v1/mix/config/gatewaySignConfig. */
export function presentSignConfig(s: SignSettings, keys: ServerKeys, urls: SignUrls): GatewaySignConfig {
  return {
    clientOpen: s.open,
    serverPublicKey: keys.publicKeyB64,
    serverPublicKeySign: keys.publicKeySign,
    defaultAlgorithm: s.defaultAlgorithm,
    encryptAlgorithm: s.encryptAlgorithm,
    exactUrls: urls.exactUrls,
    prefixUrls: urls.prefixUrls,
    signModes: [0, 1, 2],
    userCheckDeviceUrl: ["/v1/user/login"],
    signWindowMs: SIGN_WINDOW_MS,
  };
}

/**
 * Path prefixes whose state-changing routes must be signed: paper trading, assets,
 * account security, sub-accounts and API keys (the last two have no routes yet; they are
 * covered when they arrive).
 */
export const SIGNED_WRITE_PREFIXES: readonly string[] = [
  "/v1/paper/",
  "/v1/asset",
  "/v1/user/google/",
  "/v1/user/kyc/",
  "/v1/user/security",
  "/v1/user/sub",
  "/v1/user/api-key",
  "/v1/user/apikey",
  "/v1/sub-account",
];

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** State-changing routes under SIGNED_WRITE_PREFIXES that declare no sign mode. */
export function unsignedWrites(table: readonly RouteEntry[]): RouteEntry[] {
  return table.filter(
    (r) =>
      WRITE_METHODS.has(r.method) &&
      SIGNED_WRITE_PREFIXES.some((p) => r.url.startsWith(p)) &&
      !TEST_HOOK.test(r.url) &&
      r.declaredSign === undefined,
  );
}

/**
 * Scripted-price hooks (`.../test/mark`, `.../test/price`): off in production unless an
 * operator turns them on for a demo, they pin a shared mark and move no user's funds, and
 * browser tests call them from the page without a device key.
 */
const TEST_HOOK = /\/test\/[a-z]+$/;
