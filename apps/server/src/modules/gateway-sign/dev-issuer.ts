/**
 * Development issuer private key (ECDSA P-256). Its public half is the built-in
 * `DEV_ISSUER_PUBLIC_JWK` of @meridian/contracts. It signs the ephemeral server key a
 * development or test server makes at start.
 *
 * NOTE: a real deployment sets GATEWAY_SERVER_PRIVATE_KEY / GATEWAY_SERVER_KEY_SIGN
 * (signed offline by an issuer key kept out of the repo) and builds the client with that
 * issuer's public key; production without them warns at start (keys.ts).
 */
export const DEV_ISSUER_PRIVATE_JWK = {
  kty: "EC",
  crv: "P-256",
  x: "Xi-5SVKHXbWp4jgy0KBGeyopo-5a6pHhFCd1DIkPrUM",
  y: "1E7VQVYuz7hzUJSa9P579UivZMnAw6m3BeA-pW7A5c8",
  d: "70yykn4t56nLb1WAI-gLEB1COK-XxeRsO4_62eYQTp8",
} as const;
