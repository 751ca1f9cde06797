import crypto from "node:crypto";

/** Device key algorithms and how their signatures verify (WebCrypto formats). */
const VERIFY: Record<
  string,
  { hash: string; dsaEncoding?: "ieee-p1363"; type: "ec" | "rsa"; bits?: number }
> = {
  ECDSA_P256: { hash: "sha256", dsaEncoding: "ieee-p1363", type: "ec" },
  RSA1024: { hash: "sha256", type: "rsa", bits: 1024 },
  RSA2048: { hash: "sha256", type: "rsa", bits: 2048 },
};

export function isDeviceAlgorithm(alg: string): boolean {
  return Object.hasOwn(VERIFY, alg);
}

/** SHA-256 of the SPKI DER, base64url, 22 characters: the `device-sign-key` header value. */
export function deviceKeyId(spkiB64: string): string {
  return crypto.createHash("sha256").update(Buffer.from(spkiB64, "base64")).digest("base64url").slice(0, 22);
}

const cache = new Map<string, crypto.KeyObject>();
const CACHE_MAX = 10_000;

/** Imports (and caches) a device public key; throws when it does not match its algorithm. */
export function importDeviceKey(alg: string, spkiB64: string): crypto.KeyObject {
  const cacheKey = `${alg}:${spkiB64}`;
  const hit = cache.get(cacheKey);
  if (hit !== undefined) return hit;
  const spec = VERIFY[alg];
  if (spec === undefined) throw new Error("unknown device key algorithm");
  const key = crypto.createPublicKey({ key: Buffer.from(spkiB64, "base64"), format: "der", type: "spki" });
  const details = key.asymmetricKeyDetails;
  if (key.asymmetricKeyType !== spec.type) throw new Error("device key type mismatch");
  if (spec.type === "ec" && details?.namedCurve !== "prime256v1")
    throw new Error("device key curve mismatch");
  if (spec.type === "rsa" && details?.modulusLength !== spec.bits)
    throw new Error("device key size mismatch");
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(cacheKey, key);
  return key;
}

/** Verifies a base64 device signature over UTF-8 text; false on any malformed input. */
export function verifyDeviceSignature(
  alg: string,
  spkiB64: string,
  text: string,
  signatureB64: string,
): boolean {
  const spec = VERIFY[alg];
  if (spec === undefined || signatureB64.length === 0 || signatureB64.length > 1024) return false;
  try {
    const key = importDeviceKey(alg, spkiB64);
    const sig = Buffer.from(signatureB64, "base64");
    return crypto.verify(
      spec.hash,
      Buffer.from(text),
      spec.dsaEncoding === undefined ? key : { key, dsaEncoding: spec.dsaEncoding },
      sig,
    );
  } catch {
    return false;
  }
}
