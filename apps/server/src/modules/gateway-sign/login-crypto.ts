import crypto from "node:crypto";
import { AccountCode, type EncryptAlgorithm, type EncryptedBody, encryptAad } from "@meridian/contracts";
import { BusinessError } from "../../platform/errors.ts";
import type { ServerKeys } from "./keys.ts";
import type { ReplayStore } from "./replay.ts";

/** A login ciphertext is accepted within this distance of server time, and only once. */
export const CIPHER_WINDOW_MS = 5 * 60_000;
/** Failures answer no sooner than this after the request arrived: decryption steps do not show in timing. */
const FAILURE_FLOOR_MS = 15;

/** The one answer for every decryption failure (wrong key, padding, tag, JSON, time, replay). */
export function decryptFailed(): BusinessError {
  return new BusinessError(AccountCode.DECRYPT_FAILED, "Request could not be processed");
}

function decryptV1(keys: ServerKeys, wrapped: Buffer, iv: Buffer, ct: Buffer): Buffer {
  // OpenSSL's implicit rejection: a bad PKCS#1 v1.5 block yields a pseudo-random message instead of an error.
  let key = crypto.privateDecrypt(
    { key: keys.privateKey, padding: crypto.constants.RSA_PKCS1_PADDING },
    wrapped,
  );
  const keyOk = key.length === 32;
  if (!keyOk) key = crypto.randomBytes(32);
  const decipher = crypto.createDecipheriv("aes-256-cbc", key, iv.length === 16 ? iv : Buffer.alloc(16));
  const plain = Buffer.concat([decipher.update(ct), decipher.final()]);
  if (!keyOk || iv.length !== 16) throw decryptFailed();
  return plain;
}

function decryptV2(keys: ServerKeys, wrapped: Buffer, iv: Buffer, ct: Buffer, aad: string): Buffer {
  const key = crypto.privateDecrypt(
    { key: keys.privateKey, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
    wrapped,
  );
  if (key.length !== 32 || iv.length !== 12 || ct.length < 16) throw decryptFailed();
  const decipher = crypto.createDecipheriv("aes-256-gcm", key, iv);
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(ct.subarray(ct.length - 16));
  return Buffer.concat([decipher.update(ct.subarray(0, ct.length - 16)), decipher.final()]);
}

export interface DecryptOptions {
  keys: ServerKeys;
  /** Only the configured version is accepted: no downgrade to the unauthenticated scheme. */
  algorithm: EncryptAlgorithm;
  replay: ReplayStore;
  now: number;
  receivedAt: number;
}

/** Decrypts `bodyCiphertext` into its sensitive fields, or throws the uniform error. */
export async function decryptLoginFields(
  path: string,
  body: EncryptedBody,
  o: DecryptOptions,
): Promise<Record<string, unknown>> {
  try {
    if (body.cipherAlg !== o.algorithm) throw decryptFailed();
    if (Math.abs(o.now - Number(body.cipherTime)) > CIPHER_WINDOW_MS) throw decryptFailed();
    const wrapped = Buffer.from(body.cipherKey, "base64");
    const iv = Buffer.from(body.cipherIv, "base64");
    const ct = Buffer.from(body.bodyCiphertext, "base64");
    const plain =
      body.cipherAlg === "v1-rsa15-a256cbc"
        ? decryptV1(o.keys, wrapped, iv, ct)
        : decryptV2(o.keys, wrapped, iv, ct, encryptAad(path, body.cipherTime, o.keys.keyId));
    const fields: unknown = JSON.parse(plain.toString("utf8"));
    if (typeof fields !== "object" || fields === null || Array.isArray(fields)) throw decryptFailed();
    if (
      await o.replay.seen(
        `login:${crypto.createHash("sha256").update(wrapped).digest("base64url")}`,
        2 * CIPHER_WINDOW_MS,
      )
    ) {
      throw decryptFailed();
    }
    return fields as Record<string, unknown>;
  } catch {
    const wait = FAILURE_FLOOR_MS - (Date.now() - o.receivedAt);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    throw decryptFailed();
  }
}
