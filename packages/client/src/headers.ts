/**
 * Request header names the client sends (docs/product.md §7). Lower-case kebab names:
 * HTTP/2 lower-cases them anyway, and the server reads them by these exact names.
 *
 * | header          | value                                                   |
 * |-----------------|---------------------------------------------------------|
 * | `website`       | always `mix`                                            |
 * | `terminal-type` | always `1` (web)                                        |
 * | `locale`        | the interface locale code, e.g. `en`, `zh-CN` (default en)|
 * | `language`      | the server language key, e.g. `en_US`, `ja_JP`; derived |
 * |                 | from the locale table unless given                      |
 * | `terminal-code` | the terminal code kept in local storage                 |
 * | `device-id`     | the device id (fingerprint)                             |
 * | `x-request-id`  | a fresh UUID per request; the server echoes it in logs   |
 * | `tm`            | request time, milliseconds since the epoch (server clock |
 * |                 | when a `now` option aligns it); the spec names it `tm`  |
 * | `paptrading`    | `1` only in simulation (paper) trading mode             |
 * | `beta`          | `1` only in the beta environment                        |
 *
 * Signing headers (`device-sign`, `device-sign-mode`, ...) come from the
 * `beforeSend` hook, which `src/security` fills.
 *
 * NOTE: `locale`, `language`, `paptrading` and `x-request-id` are also named in
 * `@meridian/contracts` (`http.ts`), which the server reads; keep them equal.
 */
export const ClientHeader = {
  WEBSITE: "website",
  TERMINAL_TYPE: "terminal-type",
  LOCALE: "locale",
  LANGUAGE: "language",
  TERMINAL_CODE: "terminal-code",
  DEVICE_ID: "device-id",
  REQUEST_ID: "x-request-id",
  TIME: "tm",
  PAPER_TRADING: "paptrading",
  BETA: "beta",
} as const;

export const WEBSITE = "mix";
export const TERMINAL_TYPE_WEB = "1";

/** Response headers the accounts work reads through `onResponseHeaders`. */
export const ResponseHeader = {
  REQUEST_TIME: "request-time",
  GW_SIGN_ERROR: "gw-sign-error",
} as const;
