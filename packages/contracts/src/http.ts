/**
 * Header names shared by the server, the typed client and the SSR bridge. Lower case,
 * as Node and Fetch normalise them.
 */
export const Header = {
  /** Per-request id: honoured when valid, generated otherwise, echoed on every answer. */
  REQUEST_ID: "x-request-id",
  /** Asks the API to rewrite image URLs in its JSON answer to this (allowed) image host. */
  FAST_IMG_DOMAIN: "x-fast-img-domain",
  /** Locale and language keys sent by the web client (docs/product.md §7). */
  LOCALE: "locale",
  LANGUAGE: "language",
  /** Simulation (paper) trading marker: value "1" (docs/product.md §4). */
  PAPER_TRADING: "paptrading",
} as const;

/** Request headers the SSR bridge forwards from the visitor to in-process `/v1` calls. */
export const FORWARDED_API_HEADERS: readonly string[] = [
  "cookie",
  "accept-language",
  "user-agent",
  Header.LOCALE,
  Header.LANGUAGE,
  Header.PAPER_TRADING,
  Header.REQUEST_ID,
];

/** A valid incoming request id: 8 to 128 characters of letters, digits, `-`, `_`, `.`, `:`. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
