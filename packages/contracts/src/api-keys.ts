import { z } from "./zod-csp.ts";

/**
 * API keys for bots (`/account/newapi`; `/v1/user/api-keys*`). A key signs requests to
 * the Bitget-v2-compatible paper API (`/api/v2/*`, see docs/bot-api.md). It belongs to a
 * paper account (`owner`); it never grants withdrawals. Its codes are the 17xxx range
 * (18xxx is the sub-accounts module's; `codes.test.ts` keeps every table apart).
 */
export const ApiKeyCode = {
  /** The key does not exist or is not the caller's. */
  KEY_NOT_FOUND: "17001",
  /** The user already has the most keys allowed (data: max). */
  TOO_MANY_KEYS: "17002",
  /** The RSA public key is not a PEM/base64 SPKI RSA key of at least 2048 bits. */
  RSA_KEY_INVALID: "17003",
  /** An authenticator is bound: creating or editing a key needs its code. */
  SECOND_FACTOR_REQUIRED: "17004",
  SECOND_FACTOR_INVALID: "17005",
} as const;
export type ApiKeyCode = (typeof ApiKeyCode)[keyof typeof ApiKeyCode];

export const ApiKeyPath = {
  LIST: "/v1/user/api-keys",
  CREATE: "/v1/user/api-keys",
  UPDATE: "/v1/user/api-keys/:apiKey",
  DELETE: "/v1/user/api-keys/:apiKey",
  /** The same as DELETE, for the web client (which sends GET and POST only). */
  DELETE_POST: "/v1/user/api-keys/:apiKey/delete",
} as const;

/** What a key may do. Withdrawal is never a permission of a paper key. */
export const API_KEY_PERMISSIONS = ["read", "spot_trade", "futures_trade", "transfer"] as const;
export type ApiKeyPermission = (typeof API_KEY_PERMISSIONS)[number];

/** Most addresses or CIDR ranges in one key's allow-list. */
export const API_KEY_MAX_IPS = 30;
/** Most keys one user may hold. */
export const API_KEY_MAX_PER_USER = 20;
/** A key without an IP allow-list stops working this long after it was created or last edited. */
export const API_KEY_TTL_MS = 90 * 24 * 60 * 60_000;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** An IPv4 or IPv6 address, optionally with a CIDR prefix length ("10.0.0.0/8", "2001:db8::/32"). */
export function isIpOrCidr(text: string): boolean {
  const [addr = "", prefix, extra] = text.split("/");
  if (extra !== undefined) return false;
  const v4 = IPV4.test(addr);
  const v6 = !v4 && /^[0-9a-fA-F:.]{2,45}$/.test(addr) && addr.includes(":") && isIpv6(addr);
  if (!v4 && !v6) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (v4 ? 32 : 128);
}

function isIpv6(addr: string): boolean {
  const parts = addr.split("::");
  if (parts.length > 2) return false;
  const groups = parts.flatMap((p) => (p === "" ? [] : p.split(":")));
  if (!groups.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  return parts.length === 2 ? groups.length < 8 : groups.length === 8;
}

const label = z.string().trim().min(1, "required").max(32, "max");
/** Bitget's rule: 8 to 32 letters and digits. */
const passphrase = z.string().regex(/^[A-Za-z0-9]{8,32}$/, "passphrase");
const ipList = z
  .array(z.string().trim().refine(isIpOrCidr, "ip"))
  .max(API_KEY_MAX_IPS, "max")
  .transform((ips) => [...new Set(ips)]);
const permissions = z
  .array(z.enum(API_KEY_PERMISSIONS))
  .min(1, "required")
  .transform((p) => [...new Set(p)]);
const googleCode = z
  .string()
  .regex(/^\d{6}$/)
  .optional();

export const createApiKeyBodySchema = z.object({
  label,
  permissions,
  passphrase,
  ips: ipList.default([]),
  /** A PEM (or bare base64) SPKI RSA public key: the key signs with RSA instead of an HMAC secret. */
  rsaPublicKey: z.string().trim().min(100).max(4096).optional(),
  /** A sub-account's user id: the key trades that sub's paper account (a master's call only). */
  subUid: z.string().trim().min(1).max(64).optional(),
  googleCode,
});
export type CreateApiKeyBody = z.input<typeof createApiKeyBodySchema>;

export const updateApiKeyBodySchema = z.object({
  label: label.optional(),
  permissions: permissions.optional(),
  ips: ipList.optional(),
  googleCode,
});
export type UpdateApiKeyBody = z.input<typeof updateApiKeyBodySchema>;

export const apiKeyParamsSchema = z.object({ apiKey: z.string().regex(/^bg_[0-9a-f]{32}$/, "apiKey") });

/** A key as listed (the secret is never shown again after creation). */
export interface ApiKeyView {
  apiKey: string;
  label: string;
  permissions: ApiKeyPermission[];
  ips: string[];
  signType: "HMAC" | "RSA";
  /** Whose paper account the key trades: the user's own or one of its sub-accounts. */
  owner: { type: "user" | "sub"; id: string };
  createdAt: number;
  updatedAt: number;
  /** Null while an IP allow-list is set (such keys do not expire). */
  expiresAt: number | null;
  lastUsedAt: number | null;
}

/** The answer to creation: the key, plus the HMAC secret this once (absent for RSA keys). */
export interface CreatedApiKey extends ApiKeyView {
  secret?: string;
}
