/**
 * Development issuer private key (ECDSA P-256). Its public half is the built-in
 * `DEV_ISSUER_PUBLIC_JWK` of @meridian/contracts. It signs the ephemeral server key a
 * development or test server makes at start.
 *
 * NOTE: production refuses it (keys.ts): a production server gets its RSA key and the
 * issuer's signature over it from GATEWAY_SERVER_PRIVATE_KEY / GATEWAY_SERVER_KEY_SIGN,
 * made offline with `scripts/issue-server-key.ts` and an issuer key kept out of the repo.
 */
export const DEV_ISSUER_PRIVATE_JWK = {
  kty: "EC",
  crv: "P-256",
  x: "Xi-5SVKHXbWp4jgy0KBGeyopo-5a6pHhFCd1DIkPrUM",
  y: "1E7VQVYuz7hzUJSa9P579UivZMnAw6m3BeA-pW7A5c8",
  d: "70yykn4t56nLb1WAI-gLEB1COK-XxeRsO4_62eYQTp8",
} as const;
