import crypto from "node:crypto";
import net from "node:net";
import {
  API_KEY_MAX_PER_USER,
  API_KEY_TTL_MS,
  ApiKeyCode,
  type ApiKeyPermission,
  type ApiKeyView,
  type CreatedApiKey,
  type createApiKeyBodySchema,
  type updateApiKeyBodySchema,
} from "@meridian/contracts";
import { z } from "zod";
import { parseEnv } from "../../platform/config.ts";
import type { Db } from "../../platform/db/types.ts";
import { AppError } from "../../platform/errors.ts";
import { open, seal } from "../accounts/index.ts";

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** 32+ random bytes, base64: root of the API-key sealing and passphrase keys (default: ACCOUNTS_SECRET). */
  API_KEYS_SECRET: z.string().min(43).optional(),
  ACCOUNTS_SECRET: z.string().min(43).optional(),
});

export interface KeyStoreConfig {
  /** AES-256-GCM key for HMAC secrets at rest. */
  sealKey: Buffer;
  /** HMAC key for passphrases at rest. */
  macKey: Buffer;
}

const DEV_SECRET = "meridian-development-api-keys-secret-not-for-production";

/**
 * NOTE: production without API_KEYS_SECRET or ACCOUNTS_SECRET seals under a random
 * per-process root (and warns): keys made then stop working after a restart.
 */
export function loadKeyStoreConfig(
  env: NodeJS.ProcessEnv = process.env,
  warn: (msg: string) => void = console.warn,
): KeyStoreConfig {
  const e = parseEnv(envSchema, env);
  const secret = e.API_KEYS_SECRET ?? e.ACCOUNTS_SECRET;
  let root: Buffer;
  if (secret !== undefined) root = Buffer.from(secret, "base64");
  else if (e.NODE_ENV === "production") {
    warn("API_KEYS_SECRET is not set: API keys are sealed under a random per-process secret");
    root = crypto.randomBytes(32);
  } else root = Buffer.from(DEV_SECRET);
  const derive = (info: string) =>
    Buffer.from(crypto.hkdfSync("sha256", root, "meridian-api-keys", info, 32));
  return { sealKey: derive("hmac-secret-at-rest"), macKey: derive("passphrase-mac") };
}

/** An RSA public key from PEM or bare base64 SPKI; at least 2048 bits. */
export function parseRsaPublicKey(text: string): crypto.KeyObject {
  const pem = text.includes("BEGIN")
    ? text
    : `-----BEGIN PUBLIC KEY-----\n${text.replace(/\s+/g, "")}\n-----END PUBLIC KEY-----\n`;
  let key: crypto.KeyObject;
  try {
    key = crypto.createPublicKey(pem);
  } catch {
    throw new AppError(ApiKeyCode.RSA_KEY_INVALID, "The RSA public key cannot be read", { status: 400 });
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (key.asymmetricKeyType !== "rsa" || bits < 2048)
    throw new AppError(ApiKeyCode.RSA_KEY_INVALID, "An RSA public key of at least 2048 bits is required", {
      status: 400,
    });
  return key;
}

interface KeyRow {
  api_key: string;
  user_id: string;
  owner_type: string;
  owner_id: string;
  label: string;
  permissions: string;
  ips: string;
  passphrase_mac: string;
  secret_enc: string | null;
  rsa_public_key: string | null;
  created_at: number | bigint;
  updated_at: number | bigint;
  expires_at: number | bigint | null;
  last_used_at: number | bigint | null;
}

/** A key as the request verifier needs it: secrets opened, allow-list compiled. */
export interface ResolvedKey {
  apiKey: string;
  userId: string;
  owner: { type: "user" | "sub"; id: string };
  permissions: ReadonlySet<ApiKeyPermission>;
  /** Undefined: any address. */
  allow: net.BlockList | undefined;
  passphraseMac: Buffer;
  /**
   * The HMAC secret as a key object: HMAC over a KeyObject skips the per-call key import
   * that a Buffer key costs (about 4x the verifications per second; docs/performance.md).
   */
  secret: crypto.KeyObject | null;
  rsa: crypto.KeyObject | null;
  expiresAt: number | null;
}

const num = (v: number | bigint | null): number | null => (v === null ? null : Number(v));

function present(r: KeyRow): ApiKeyView {
  return {
    apiKey: r.api_key,
    label: r.label,
    permissions: JSON.parse(r.permissions) as ApiKeyPermission[],
    ips: JSON.parse(r.ips) as string[],
    signType: r.rsa_public_key === null ? "HMAC" : "RSA",
    owner: { type: r.owner_type === "sub" ? "sub" : "user", id: r.owner_id },
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    expiresAt: num(r.expires_at),
    lastUsedAt: num(r.last_used_at),
  };
}

function blockList(ips: readonly string[]): net.BlockList | undefined {
  if (ips.length === 0) return undefined;
  const list = new net.BlockList();
  for (const entry of ips) {
    const [addr = "", prefix] = entry.split("/");
    const type = net.isIPv6(addr) ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(addr, type);
    else list.addSubnet(addr, Number(prefix), type);
  }
  return list;
}

/** Whether `ip` (as Fastify reports it; IPv4-mapped IPv6 included) is on the key's list. */
export function ipAllowed(key: ResolvedKey, ip: string): boolean {
  if (key.allow === undefined) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip)?.[1];
  const addr = mapped ?? ip;
  return key.allow.check(addr, net.isIPv6(addr) ? "ipv6" : "ipv4");
}

const CACHE_MS = 5_000;

/**
 * The API key store: create, list, edit, delete (the `/v1` management API and the
 * security pages use it) and `resolve` for the request verifier, which caches opened
 * keys for a few seconds so a bot's calls do not each decrypt a secret. Edits and
 * deletions in this process drop the cached copy at once.
 */
/** The ids of a user's sub-accounts (the accounts module's read). */
export type SubAccountIds = (userId: string) => Promise<readonly string[]>;

export class ApiKeyStore {
  readonly #db: Db;
  readonly #config: KeyStoreConfig;
  readonly #now: () => number;
  readonly #cache = new Map<
    string,
    { key: ResolvedKey | undefined; updatedAt: number | undefined; until: number }
  >();
  readonly #verified = new WeakMap<ResolvedKey, Buffer>();
  /** The passphrase MAC key as a key object (HMAC over a Buffer key re-imports it per call). */
  readonly #macKey: crypto.KeyObject;
  readonly #touched = new Map<string, number>();
  readonly #subsOf: SubAccountIds;

  constructor(db: Db, config: KeyStoreConfig, subsOf: SubAccountIds, now: () => number = Date.now) {
    this.#db = db;
    this.#config = config;
    this.#subsOf = subsOf;
    this.#now = now;
    this.#macKey = crypto.createSecretKey(config.macKey);
  }

  /** A key the user manages: its own, or one of its sub-accounts' (`sql` with `params` in its place). */
  async #managedBy(userId: string): Promise<{ sql: string; params: string[] }> {
    const ids = [userId, ...(await this.#subsOf(userId))];
    return { sql: `user_id IN (${ids.map(() => "?").join(", ")})`, params: ids };
  }

  /**
   * Whether `passphrase` is the key's. The MAC is checked once per opened key; the text it
   * accepted is then compared in constant time (in memory only, like the opened secret).
   */
  passphraseMatches(key: ResolvedKey, passphrase: string): boolean {
    const given = Buffer.from(passphrase, "utf8");
    const seen = this.#verified.get(key);
    if (seen !== undefined) return seen.length === given.length && crypto.timingSafeEqual(seen, given);
    const mac = this.passphraseMac(key.apiKey, passphrase);
    const ok = mac.length === key.passphraseMac.length && crypto.timingSafeEqual(mac, key.passphraseMac);
    if (ok) this.#verified.set(key, given);
    return ok;
  }

  passphraseMac(apiKey: string, passphrase: string): Buffer {
    return crypto.createHmac("sha256", this.#macKey).update(`${apiKey}\u0000${passphrase}`).digest();
  }

  async create(
    userId: string,
    body: z.output<typeof createApiKeyBodySchema>,
    owner: { type: "user" | "sub"; id: string } = { type: "user", id: userId },
  ): Promise<CreatedApiKey> {
    const count = await this.#db.get<{ n: number | bigint }>(
      "SELECT COUNT(*) AS n FROM api_keys WHERE user_id = ?",
      [userId],
    );
    if (Number(count?.n ?? 0) >= API_KEY_MAX_PER_USER)
      throw new AppError(ApiKeyCode.TOO_MANY_KEYS, "Too many API keys", {
        status: 400,
        data: { max: API_KEY_MAX_PER_USER },
      });
    const rsa = body.rsaPublicKey === undefined ? null : parseRsaPublicKey(body.rsaPublicKey);
    const apiKey = `bg_${crypto.randomBytes(16).toString("hex")}`;
    const secret = rsa === null ? crypto.randomBytes(32).toString("hex") : undefined;
    const now = this.#now();
    await this.#db.run(
      `INSERT INTO api_keys (api_key, user_id, owner_type, owner_id, label, permissions, ips, passphrase_mac,
        secret_enc, rsa_public_key, created_at, updated_at, expires_at, last_used_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
      [
        apiKey,
        userId,
        owner.type,
        owner.id,
        body.label,
        JSON.stringify(body.permissions),
        JSON.stringify(body.ips),
        this.passphraseMac(apiKey, body.passphrase).toString("hex"),
        secret === undefined ? null : seal(this.#config.sealKey, secret, `api-key:${apiKey}`),
        rsa === null ? null : (rsa.export({ type: "spki", format: "pem" }) as string),
        now,
        now,
        body.ips.length === 0 ? now + API_KEY_TTL_MS : null,
      ],
    );
    const view = await this.get(userId, apiKey);
    return secret === undefined ? view : { ...view, secret };
  }

  /**
   * The keys of the user and of its sub-accounts, newest first (`/account/newapi` and
   * `/subaccount/setting/api`): a master manages its subs' keys too.
   */
  async listByUser(userId: string): Promise<ApiKeyView[]> {
    const managed = await this.#managedBy(userId);
    const rows = await this.#db.all<KeyRow>(
      `SELECT * FROM api_keys WHERE ${managed.sql} ORDER BY created_at DESC`,
      managed.params,
    );
    return rows.map(present);
  }

  async get(userId: string, apiKey: string): Promise<ApiKeyView> {
    const managed = await this.#managedBy(userId);
    const row = await this.#db.get<KeyRow>(`SELECT * FROM api_keys WHERE api_key = ? AND ${managed.sql}`, [
      apiKey,
      ...managed.params,
    ]);
    if (row === undefined) throw new AppError(ApiKeyCode.KEY_NOT_FOUND, "API key not found", { status: 404 });
    return present(row);
  }

  /** Edits label, permissions or IPs. Setting an empty IP list restarts the 90-day clock. */
  async update(
    userId: string,
    apiKey: string,
    patch: Omit<z.output<typeof updateApiKeyBodySchema>, "googleCode">,
  ): Promise<ApiKeyView> {
    const current = await this.get(userId, apiKey);
    const ips = patch.ips ?? current.ips;
    const now = this.#now();
    const expiresAt =
      ips.length > 0 ? null : patch.ips !== undefined ? now + API_KEY_TTL_MS : current.expiresAt;
    const managed = await this.#managedBy(userId);
    await this.#db.run(
      `UPDATE api_keys SET label = ?, permissions = ?, ips = ?, expires_at = ?, updated_at = ? WHERE api_key = ? AND ${managed.sql}`,
      [
        patch.label ?? current.label,
        JSON.stringify(patch.permissions ?? current.permissions),
        JSON.stringify(ips),
        expiresAt,
        now,
        apiKey,
        ...managed.params,
      ],
    );
    this.#cache.delete(apiKey);
    return this.get(userId, apiKey);
  }

  async delete(userId: string, apiKey: string): Promise<void> {
    const managed = await this.#managedBy(userId);
    const res = await this.#db.run(`DELETE FROM api_keys WHERE api_key = ? AND ${managed.sql}`, [
      apiKey,
      ...managed.params,
    ]);
    this.#cache.delete(apiKey);
    if (res.changes !== 1) throw new AppError(ApiKeyCode.KEY_NOT_FOUND, "API key not found", { status: 404 });
  }

  /** The key for the request verifier (cached a few seconds), or undefined. */
  async resolve(apiKey: string): Promise<ResolvedKey | undefined> {
    const now = this.#now();
    const hit = this.#cache.get(apiKey);
    if (hit !== undefined && hit.until > now) return hit.key;
    const row = /^bg_[0-9a-f]{32}$/.test(apiKey)
      ? await this.#db.get<KeyRow>("SELECT * FROM api_keys WHERE api_key = ?", [apiKey])
      : undefined;
    const updatedAt = row === undefined ? undefined : Number(row.updated_at);
    // An unchanged row keeps its opened key: no unsealing every few seconds per busy key.
    const key =
      row === undefined
        ? undefined
        : hit?.key !== undefined && hit.updatedAt === updatedAt
          ? hit.key
          : this.#open(row);
    if (this.#cache.size > 10_000) this.#cache.clear();
    this.#cache.set(apiKey, { key, updatedAt, until: now + CACHE_MS });
    return key;
  }

  /** Records use, at most once a minute per key (the list shows "last used"). */
  touch(apiKey: string): void {
    const now = this.#now();
    if ((this.#touched.get(apiKey) ?? 0) > now - 60_000) return;
    this.#touched.set(apiKey, now);
    void this.#db
      .run("UPDATE api_keys SET last_used_at = ? WHERE api_key = ?", [now, apiKey])
      .catch(() => {});
  }

  #open(row: KeyRow): ResolvedKey {
    const view = present(row);
    return {
      apiKey: row.api_key,
      userId: row.user_id,
      owner: view.owner,
      permissions: new Set(view.permissions),
      allow: blockList(view.ips),
      passphraseMac: Buffer.from(row.passphrase_mac, "hex"),
      secret:
        row.secret_enc === null
          ? null
          : crypto.createSecretKey(
              Buffer.from(open(this.#config.sealKey, row.secret_enc, `api-key:${row.api_key}`), "utf8"),
            ),
      rsa: row.rsa_public_key === null ? null : crypto.createPublicKey(row.rsa_public_key),
      expiresAt: view.expiresAt,
    };
  }
}
