/**
 * The code catalogue (docs/product.md §8). Every API answer carries one of these in
 * its `{code, msg, data}` envelope. Codes the spec names keep the spec's value;
 * codes the spec leaves open use the 1xxxx range and are stable once shipped.
 */
export const Code = {
  /** Success (the spec also accepts "200" from older gateways). */
  OK: "00000",
  /** Session missing or expired: forced logout (spec: 00004, 20906, 20205). */
  SESSION_INVALID: "00004",
  SESSION_KICKED: "20906",
  SESSION_FROZEN: "20205",
  /** Gateway signature errors (spec section 8). */
  SIGN_MISSING: "00020",
  SIGN_MODE_MISMATCH: "00021",
  SIGN_EXPIRED: "00022",
  SIGN_INVALID: "00023",

  /** Request shape errors, answered at the edge before any business rule runs. */
  NOT_FOUND: "10404",
  METHOD_NOT_ALLOWED: "10405",
  MALFORMED_JSON: "10400",
  /** The request path has no canonical form (encoded slash, backslash, bad escape). */
  MALFORMED_PATH: "10410",
  /** The Host header is not a host name or address with an optional port. */
  MALFORMED_HOST: "10411",
  VALIDATION_FAILED: "10422",
  BODY_TOO_LARGE: "10413",
  UNSUPPORTED_MEDIA_TYPE: "10415",
  TOO_MANY_REQUESTS: "10429",
  /** An uploaded image decodes to more pixels than allowed (a decompression bomb): 413. */
  IMAGE_TOO_MANY_PIXELS: "10414",
  /** An uploaded file starts like an image of an accepted type but does not decode as one: 422. */
  IMAGE_UNREADABLE: "10416",
  /** A WebSocket endpoint called without the upgrade handshake. */
  UPGRADE_REQUIRED: "10426",
  UNAUTHENTICATED: "10401",
  FORBIDDEN: "10403",
  CONFLICT: "10409",
  INTERNAL: "10500",
  UNAVAILABLE: "10503",
} as const;

export type CodeName = keyof typeof Code;
export type CodeValue = (typeof Code)[CodeName];

/** Success codes (docs/product.md §9). */
export const SUCCESS_CODES: ReadonlySet<string> = new Set(["00000", "200"]);

/** Codes that force a logout on any call but user info (docs/product.md §8). */
export const FORCED_LOGOUT_CODES: ReadonlySet<string> = new Set(["00004", "20906", "20205"]);

/** Gateway sign error codes (docs/product.md §8). */
export const SIGN_ERROR_CODES: ReadonlySet<string> = new Set(["00020", "00021", "00022", "00023"]);

export function isSuccessCode(code: string): boolean {
  return SUCCESS_CODES.has(code);
}
