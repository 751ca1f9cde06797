import {
  DEV_ISSUER_PUBLIC_JWK,
  type EncryptedBody,
  encryptAad,
  type GatewaySignConfig,
  initSignPayload,
  SENSITIVE_FIELDS,
} from "@meridian/contracts";
import { fromBase64, sha256Hex, toBase64, utf8 } from "./encoding.ts";
import { md5Hex } from "./md5.ts";

/** Thrown when the server key fails the issuer check or encryption fails: the `loginEncryptFailed` event. */
export class LoginEncryptError extends Error {
  override name = "LoginEncryptError";
}

/** A server key that passed the issuer check, ready to encrypt login bodies. */
export interface VerifiedServerKey {
  spki: Uint8Array<ArrayBuffer>;
  /** Same derivation as the server: SHA-256 of the SPKI, base64url, 16 characters. */
  keyId: string;
  algorithm: GatewaySignConfig["encryptAlgorithm"];
}

function base64url(bytes: ArrayBuffer): string {
  return toBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * Verifies `serverPublicKey` against the built-in issuer key: an ECDSA P-256 SHA-256
 * signature over the lower-case MD5 hex of the decoded key (docs/product.md §5).
 */
export async function verifyServerKey(
  config: Pick<GatewaySignConfig, "serverPublicKey" | "serverPublicKeySign" | "encryptAlgorithm">,
  issuerJwk: JsonWebKey = DEV_ISSUER_PUBLIC_JWK,
): Promise<VerifiedServerKey> {
  try {
    const spki = fromBase64(config.serverPublicKey);
    const issuer = await crypto.subtle.importKey(
      "jwk",
      issuerJwk,
      { name: "ECDSA", namedCurve: "P-256" },
      false,
      ["verify"],
    );
    const ok = await crypto.subtle.verify(
      { name: "ECDSA", hash: "SHA-256" },
      issuer,
      fromBase64(config.serverPublicKeySign),
      utf8(md5Hex(spki).toLowerCase()),
    );
    if (!ok) throw new LoginEncryptError("server key not signed by the issuer");
    const keyId = base64url(await crypto.subtle.digest("SHA-256", spki)).slice(0, 16);
    return { spki, keyId, algorithm: config.encryptAlgorithm };
  } catch (err) {
    throw err instanceof LoginEncryptError ? err : new LoginEncryptError("server key unusable");
  }
}

/** RSA PKCS#1 v1.5 encryption (type 2 padding) with BigInt: WebCrypto has no RSAES-PKCS1-v1_5. Legacy scheme only. */
function rsaPkcs1Encrypt(spki: Uint8Array, message: Uint8Array): Uint8Array {
  const { n, e } = parseRsaSpki(spki);
  const k = Math.ceil(n.toString(16).length / 2);
  if (message.length > k - 11) throw new LoginEncryptError("message too long");
  const ps = new Uint8Array(k - message.length - 3);
  for (let i = 0; i < ps.length; i++) {
    let b = 0;
    while (b === 0) b = crypto.getRandomValues(new Uint8Array(1))[0] ?? 0;
    ps[i] = b;
  }
  const em = new Uint8Array(k);
  em[1] = 2;
  em.set(ps, 2);
  em.set(message, 3 + ps.length);
  let m = 0n;
  for (const byte of em) m = (m << 8n) | BigInt(byte);
  let c = 1n;
  let base = m % n;
  let exp = e;
  while (exp > 0n) {
    if (exp & 1n) c = (c * base) % n;
    base = (base * base) % n;
    exp >>= 1n;
  }
  const out = new Uint8Array(k);
  for (let i = k - 1; i >= 0; i--) {
    out[i] = Number(c & 0xffn);
    c >>= 8n;
  }
  return out;
}

/** Reads modulus and exponent from an RSA SubjectPublicKeyInfo (DER). */
function parseRsaSpki(der: Uint8Array): { n: bigint; e: bigint } {
  let pos = 0;
  const readLen = (): number => {
    const first = der[pos++] ?? 0;
    if (first < 0x80) return first;
    let len = 0;
    for (let i = 0; i < (first & 0x7f); i++) len = (len << 8) | (der[pos++] ?? 0);
    return len;
  };
  const expect = (tag: number) => {
    if (der[pos++] !== tag) throw new LoginEncryptError("bad RSA key");
    return readLen();
  };
  expect(0x30);
  const algLen = expect(0x30);
  pos += algLen;
  expect(0x03);
  pos += 1;
  expect(0x30);
  const readInt = (): bigint => {
    const len = expect(0x02);
    let v = 0n;
    for (let i = 0; i < len; i++) v = (v << 8n) | BigInt(der[pos++] ?? 0);
    return v;
  };
  return { n: readInt(), e: readInt() };
}

export interface DeviceProof {
  publicKey: string;
  algorithm: NonNullable<EncryptedBody["algorithm"]>;
  sign(text: string): Promise<string>;
}

/**
 * Moves the sensitive fields of `body` into `bodyCiphertext` (docs/product.md §7). With a
 * device key, adds its public key, algorithm and an initial signature that proves the
 * client holds it.
 */
export async function encryptLoginBody(
  path: string,
  body: Record<string, unknown>,
  key: VerifiedServerKey,
  nowMs: number,
  device?: DeviceProof,
): Promise<Record<string, unknown>> {
  try {
    const sensitive: Record<string, unknown> = {};
    const rest: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body)) (SENSITIVE_FIELDS.includes(k) ? sensitive : rest)[k] = v;
    const cipherTime = String(Math.floor(nowMs));
    const plain = utf8(JSON.stringify(sensitive));
    const rawKey = crypto.getRandomValues(new Uint8Array(32));
    let ct: ArrayBuffer;
    let wrapped: Uint8Array | ArrayBuffer;
    let iv: Uint8Array<ArrayBuffer>;
    if (key.algorithm === "v1-rsa15-a256cbc") {
      iv = crypto.getRandomValues(new Uint8Array(16));
      const aes = await crypto.subtle.importKey("raw", rawKey, "AES-CBC", false, ["encrypt"]);
      ct = await crypto.subtle.encrypt({ name: "AES-CBC", iv }, aes, plain);
      wrapped = rsaPkcs1Encrypt(key.spki, rawKey);
    } else {
      iv = crypto.getRandomValues(new Uint8Array(12));
      const aes = await crypto.subtle.importKey("raw", rawKey, "AES-GCM", false, ["encrypt"]);
      ct = await crypto.subtle.encrypt(
        { name: "AES-GCM", iv, additionalData: utf8(encryptAad(path, cipherTime, key.keyId)) },
        aes,
        plain,
      );
      const rsa = await crypto.subtle.importKey(
        "spki",
        key.spki,
        { name: "RSA-OAEP", hash: "SHA-256" },
        false,
        ["encrypt"],
      );
      wrapped = await crypto.subtle.encrypt({ name: "RSA-OAEP" }, rsa, rawKey);
    }
    const bodyCiphertext = toBase64(ct);
    const out: Record<string, unknown> = {
      ...rest,
      bodyCiphertext,
      cipherKey: toBase64(wrapped),
      cipherIv: toBase64(iv),
      cipherAlg: key.algorithm,
      cipherTime,
    };
    if (device !== undefined) {
      out.publicKey = device.publicKey;
      out.algorithm = device.algorithm;
      out.initSign = await device.sign(initSignPayload(path, cipherTime, await sha256Hex(bodyCiphertext)));
    }
    return out;
  } catch (err) {
    throw err instanceof LoginEncryptError ? err : new LoginEncryptError("login encryption failed");
  }
}
