import crypto from "node:crypto";
import { hash, verify } from "@node-rs/argon2";

/** OWASP password storage parameters for argon2id (algorithm 2): m=19 MiB, t=2, p=1. */
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

/** A hash of a random password: unknown accounts verify against it so timing does not reveal them. */
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  if (stored === undefined) {
    dummyHash ??= hashPassword(crypto.randomBytes(16).toString("hex"));
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}

/** 256 random bits, base64url: session, refresh and challenge tokens. */
export function newToken(): string {
  return crypto.randomBytes(32).toString("base64url");
}

/** Tokens are stored as SHA-256 hex: a database leak yields no usable session. */
export function sha256Hex(value: string | Uint8Array): string {
  // One-shot: no Hash object per call (every authenticated request hashes its token).
  return crypto.hash("sha256", value, "hex");
}

export function hmacHex(key: Buffer, value: string): string {
  return crypto.createHmac("sha256", key).update(value).digest("hex");
}

export function safeEqualHex(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && x.length > 0 && crypto.timingSafeEqual(x, y);
}

/** AES-256-GCM sealed string `v1.<iv>.<tag>.<ciphertext>` (base64url): TOTP secrets at rest. */
export function seal(key: Buffer, plain: string, context: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context));
  const ct = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [
    "v1",
    iv.toString("base64url"),
    cipher.getAuthTag().toString("base64url"),
    ct.toString("base64url"),
  ].join(".");
}

export function open(key: Buffer, sealed: string, context: string): string {
  const [version, iv, tag, ct] = sealed.split(".");
  if (version !== "v1" || iv === undefined || tag === undefined || ct === undefined)
    throw new Error("bad sealed value");
  const decipher = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
}

/** A uniformly random 6-digit code. */
export function newNumericCode(): string {
  return crypto.randomInt(0, 1_000_000).toString().padStart(6, "0");
}
