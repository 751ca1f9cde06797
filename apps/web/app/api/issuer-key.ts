import { ISSUER_PUBLIC_JWK_ENV, parseIssuerPublicJwk } from "@meridian/contracts";

/**
 * The issuer public key this build trusts (docs/product.md §5): `VITE_ISSUER_PUBLIC_JWK` at
 * build time, inlined by Vite, else the development issuer. A malformed value must not
 * fall back to the development key: it yields a key WebCrypto refuses, so the server key
 * check fails and the client reports loginEncryptFailed instead of trusting the wrong key.
 */
export function buildIssuerJwk(
  text: string | undefined = import.meta.env.VITE_ISSUER_PUBLIC_JWK,
): JsonWebKey {
  try {
    return parseIssuerPublicJwk(text);
  } catch (err) {
    console.error(`${ISSUER_PUBLIC_JWK_ENV}:`, err instanceof Error ? err.message : err);
    return { kty: "EC", crv: "P-256", x: "", y: "" };
  }
}
