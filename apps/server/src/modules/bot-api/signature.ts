import crypto from "node:crypto";

/** Bitget's request window: a signed timestamp more than this far from the server clock is refused. */
export const SIGN_WINDOW_MS = 30_000;

/**
 * Bitget's pre-hash: timestamp + METHOD + requestPath (with `/api`) + ("?" + query when
 * there is one) + the raw body. The query is the one on the wire, as sent.
 */
export function prehash(
  timestamp: string,
  method: string,
  path: string,
  query: string,
  body: string,
): string {
  return `${timestamp}${method.toUpperCase()}${path}${query === "" ? "" : `?${query}`}${body}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** The texts a client may have signed for this request (see `verifyHmac`). */
export function candidates(
  timestamp: string,
  method: string,
  path: string,
  query: string,
  body: string,
): string[] {
  const raw = prehash(timestamp, method, path, query, body);
  const decoded = prehash(timestamp, method, path, safeDecode(query), body);
  return decoded === raw ? [raw] : [raw, decoded];
}

/**
 * Base64(HMAC-SHA256(secret, prehash)). ccxt signs the query un-encoded (its comment:
 * "bitget signs the raw (non-percent-encoded) query string") while Bitget's own SDK signs
 * it percent-encoded, so both the wire form and the decoded form are accepted.
 */
export function verifyHmac(secret: crypto.KeyObject, texts: readonly string[], sign: string): boolean {
  const given = Buffer.from(sign, "base64");
  if (given.length !== 32) return false;
  for (const text of texts) {
    if (crypto.timingSafeEqual(crypto.createHmac("sha256", secret).update(text).digest(), given)) return true;
  }
  return false;
}

/** SHA256withRSA over the same pre-hash, Base64 (Bitget's user-generated RSA keys). */
export function verifyRsa(key: crypto.KeyObject, texts: readonly string[], sign: string): boolean {
  const signature = Buffer.from(sign, "base64");
  if (signature.length === 0) return false;
  for (const text of texts) {
    if (crypto.verify("sha256", Buffer.from(text), key, signature)) return true;
  }
  return false;
}

/** What a client sends: Base64(HMAC-SHA256(secret, prehash)) (tests, the benchmark, examples). */
export function signHmac(secret: string, text: string): string {
  return crypto.createHmac("sha256", secret).update(text).digest("base64");
}
