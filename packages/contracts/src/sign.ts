import { z } from "./zod-csp.ts";

/**
 * Gateway request signing and login-body encryption (docs/product.md §5, 7, 9).
 *
 * NOTE: the server (`apps/server/src/modules/gateway-sign`) and the browser client
 * (`packages/client/src/security`) both build the signed text with `signPayload`
 * below; change it in one place only.
 */

/** Request and response headers of the signing protocol. */
export const SignHeader = {
  SIGN: "device-sign",
  MODE: "device-sign-mode",
  DATA_MD5: "device-sign-data-md5",
  KEY: "device-sign-key",
  /** Client time in ms (decimal string). */
  TIME: "tm",
  /** Per-request trace id: `<tm>-<hex random>`, so the signed trace id pins the full time. */
  TRACE_ID: "uhti",
  /** Server time in ms on every answer: the client aligns its clock with it. */
  REQUEST_TIME: "request-time",
  /** Set on every sign failure: the reason in one word (missing, mode, expired, invalid). */
  SIGN_ERROR: "gw-sign-error",
} as const;

/** 0 path+time, 1 path+time+traceId, 2 path+time+traceId+body. */
export const SignMode = { PATH_TIME: 0, PATH_TIME_TRACE: 1, PATH_TIME_TRACE_BODY: 2 } as const;
export type SignModeValue = (typeof SignMode)[keyof typeof SignMode];

/** The signed time is the first 8 characters of the ms timestamp (docs/product.md §9). */
export const SIGN_TIME_LENGTH = 8;
/** A signed request is accepted when its `tm` is within this distance of server time. */
export const SIGN_WINDOW_MS = 60_000;
/** Key-pair generation gives up after this long (docs/product.md §9). */
export const KEYPAIR_TIMEOUT_MS = 8_000;
/** Client reactions (re-init after 00020/00021) wait this long. */
export const SIGN_REINIT_DELAY_MS = 2_000;

/**
 * Device key algorithms (docs/product.md §9). The server's sign config names the one new
 * key pairs use: RSA-2048 by default (`GATEWAY_DEVICE_ALGORITHM`, docs/decisions.md);
 * the client falls back to ECDSA P-256 only if it has no config.
 */
export const DeviceKeyAlgorithm = z.enum(["ECDSA_P256", "RSA1024", "RSA2048"]);
export type DeviceKeyAlgorithm = z.infer<typeof DeviceKeyAlgorithm>;

/**
 * Login-body encryption versions. `v2` (default): RSA-OAEP-256 wraps a fresh AES-256-GCM
 * key; path, time and server key id are associated data. `v1` is the spec's scheme
 * (AES-256-CBC, key wrapped with RSA PKCS#1 v1.5), unauthenticated: only when configured.
 */
export const EncryptAlgorithm = z.enum(["v2-rsa-oaep256-a256gcm", "v1-rsa15-a256cbc"]);
export type EncryptAlgorithm = z.infer<typeof EncryptAlgorithm>;

export const gatewaySignConfigSchema = z.object({
  clientOpen: z.boolean(),
  /** Server RSA public key, SPKI DER in base64. */
  serverPublicKey: z.string(),
  /** Issuer signature (ECDSA P-256 SHA-256, IEEE P1363, base64) over lower-case MD5 hex of the decoded key. */
  serverPublicKeySign: z.string(),
  /** Device key algorithm new key pairs use. */
  defaultAlgorithm: DeviceKeyAlgorithm,
  /** Login-body encryption version the server expects. */
  encryptAlgorithm: EncryptAlgorithm,
  /** Path -> sign mode, for exact path matches. */
  exactUrls: z.record(z.string(), z.number().int().min(0).max(2)),
  /** Path prefix -> sign mode (the path or anything below it). */
  prefixUrls: z.record(z.string(), z.number().int().min(0).max(2)),
  signModes: z.array(z.number().int().min(0).max(2)),
  /** Paths where, without a token cookie, a device check signature accompanies a hashed user id. */
  userCheckDeviceUrl: z.array(z.string()),
  /** Width of the accepted time window in ms (documented, not a secret). */
  signWindowMs: z.number().int().positive(),
});
export type GatewaySignConfig = z.infer<typeof gatewaySignConfigSchema>;

/** Which sign mode a path needs, or undefined when unsigned. Exact matches win over prefixes; the longest prefix wins. */
export function signModeFor(
  config: Pick<GatewaySignConfig, "exactUrls" | "prefixUrls">,
  pathname: string,
): number | undefined {
  const exact = config.exactUrls[pathname];
  if (exact !== undefined) return exact;
  let best: string | undefined;
  for (const prefix of Object.keys(config.prefixUrls)) {
    const base = prefix.endsWith("/") ? prefix.slice(0, -1) : prefix;
    if (
      (pathname === base || pathname.startsWith(`${base}/`) || pathname.startsWith(prefix)) &&
      (best === undefined || prefix.length > best.length)
    ) {
      best = prefix;
    }
  }
  return best === undefined ? undefined : config.prefixUrls[best];
}

/** The text a device key signs for one request. */
export function signPayload(
  mode: number,
  path: string,
  tm: string,
  traceId: string,
  bodyMd5: string,
): string {
  const parts = [path, tm.slice(0, SIGN_TIME_LENGTH)];
  if (mode >= SignMode.PATH_TIME_TRACE) parts.push(traceId);
  if (mode >= SignMode.PATH_TIME_TRACE_BODY) parts.push(bodyMd5);
  return parts.join("\n");
}

/** The text the device key signs at login to prove it holds the key it asks to bind. */
export function initSignPayload(path: string, cipherTime: string, ciphertextSha256Hex: string): string {
  return ["init", path, cipherTime, ciphertextSha256Hex].join("\n");
}

/** The text the device key signs for a device check (no token cookie yet). */
export function deviceCheckPayload(path: string, hashUserId: string, tm: string): string {
  return ["device-check", path, hashUserId, tm].join("\n");
}

/** Associated data of the v2 scheme: binds the ciphertext to its path, time and server key. */
export function encryptAad(path: string, cipherTime: string, serverKeyId: string): string {
  return [path, cipherTime, serverKeyId].join("\n");
}

/** Paths whose bodies travel encrypted (docs/product.md §7). */
export const ENCRYPTED_EXACT_PATHS: readonly string[] = [
  "/v1/user/login",
  "/v1/user/agency/login",
  "/v1/user/login/verify-login",
  "/v1/user/login/verify-login-v2",
  "/v1/user/login/verifySystemLogin",
  "/v1/user/login/verifySystemLogin-v2",
  "/v1/user/login/verify-auth-login",
  // Meridian's own: signing in with a passkey binds a device key like any login.
  "/v1/user/login/passkey",
  "/v1/user/register/mobile",
  "/v1/user/register/email",
  "/v1/user/register/mobileAndEmail",
  "/v1/user/public/getQrKeyStatus",
];
export const ENCRYPTED_PREFIX_PATHS: readonly string[] = ["/v1/user/public/third/", "/v1/user/sub/switch"];

export function isEncryptedPath(pathname: string): boolean {
  return (
    ENCRYPTED_EXACT_PATHS.includes(pathname) || ENCRYPTED_PREFIX_PATHS.some((p) => pathname.startsWith(p))
  );
}

/** Fields that never travel in plain text on an encrypted path. */
export const SENSITIVE_FIELDS: readonly string[] = [
  "loginName",
  "pwd",
  "areaCode",
  "verifyCode",
  "rePwd",
  "emailCode",
  "mobileCode",
  "googleCode",
  "fidoVerifyCode",
  "recoveryCode",
  "mobile",
  "email",
  "serialNO",
  "token",
  "signature",
  "userId",
  "verifyToken",
  // Third-party sign-in: the OpenID callback (its authorization code) and Telegram's signature.
  "callback",
  "hash",
];

/** The extra fields an encrypted body carries besides the non-sensitive ones. */
export const encryptedBodySchema = z.object({
  bodyCiphertext: z.string().min(1).max(16_384),
  cipherKey: z.string().min(1).max(1_024),
  cipherIv: z.string().min(1).max(64),
  cipherAlg: EncryptAlgorithm,
  cipherTime: z.string().regex(/^\d{13}$/),
  /** Device public key to bind (SPKI base64) and its algorithm; initSign proves possession. */
  publicKey: z.string().max(1_024).optional(),
  algorithm: DeviceKeyAlgorithm.optional(),
  initSign: z.string().max(1_024).optional(),
});
export type EncryptedBody = z.infer<typeof encryptedBodySchema>;

/** Client-side security events (docs/product.md §8). */
export const SecurityEvent = z.enum([
  "loginEncryptFailed",
  "genKeypairFailed",
  "initFailed",
  "signError",
  "signInvalidKeys",
]);
export type SecurityEvent = z.infer<typeof SecurityEvent>;

export const cspSecurityReportSchema = z.object({
  bizType: z.string().min(1).max(64),
  data: z.object({ event: z.string().min(1).max(64), reason: z.string().max(2_048) }),
  timestamp: z.number().int().nonnegative(),
  page: z.string().max(2_048),
});
export type CspSecurityReport = z.infer<typeof cspSecurityReportSchema>;

/** Development issuer public key (ECDSA P-256, JWK). Production builds pass their own issuer key to the client. */
export const DEV_ISSUER_PUBLIC_JWK = {
  kty: "EC",
  crv: "P-256",
  x: "Xi-5SVKHXbWp4jgy0KBGeyopo-5a6pHhFCd1DIkPrUM",
  y: "1E7VQVYuz7hzUJSa9P579UivZMnAw6m3BeA-pW7A5c8",
} as const;

/**
 * The variable that carries a deployment's issuer public key (a JWK as JSON): read by the
 * web build (Vite exposes `VITE_`-prefixed variables to the browser bundle) and by the
 * server, which refuses in production to serve a server key this issuer did not sign.
 */
export const ISSUER_PUBLIC_JWK_ENV = "VITE_ISSUER_PUBLIC_JWK";

export interface IssuerPublicJwk {
  kty: "EC";
  crv: "P-256";
  x: string;
  y: string;
}

const coordinate = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "a P-256 coordinate is 43 base64url characters");
const issuerPublicJwkSchema = z.object({
  kty: z.literal("EC"),
  crv: z.literal("P-256"),
  x: coordinate,
  y: coordinate,
  d: z.never({ error: "a private key (it has d): give the public half only" }).optional(),
});

/**
 * The issuer public key from its JSON text; the development key when the text is absent
 * or blank. Throws on anything else that is not a P-256 public JWK, and on a private one
 * (it would end up in the browser bundle). Extra members (kid, use, alg) are dropped.
 */
export function parseIssuerPublicJwk(text: string | undefined): IssuerPublicJwk {
  if (text === undefined || text.trim() === "") return { ...DEV_ISSUER_PUBLIC_JWK };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${ISSUER_PUBLIC_JWK_ENV} is not JSON`);
  }
  const parsed = issuerPublicJwkSchema.safeParse(json);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.join(".") || "key"}: ${i.message}`).join("; ");
    throw new Error(`${ISSUER_PUBLIC_JWK_ENV} is not an ECDSA P-256 public JWK (${why})`);
  }
  const { kty, crv, x, y } = parsed.data;
  return { kty, crv, x, y };
}

export function isDevIssuer(jwk: Pick<IssuerPublicJwk, "x" | "y">): boolean {
  return jwk.x === DEV_ISSUER_PUBLIC_JWK.x && jwk.y === DEV_ISSUER_PUBLIC_JWK.y;
}
