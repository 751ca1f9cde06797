/**
 * Request header names the client sends (SPEC section 7). Lower-case kebab names:
 * HTTP/2 lower-cases them anyway, and the server reads them by these exact names.
 *
 * | header          | value                                                   |
 * |-----------------|---------------------------------------------------------|
 * | `website`       | always `mix`                                            |
 * | `terminal-type` | always `1` (web)                                        |
 * | `locale`        | the interface locale code, e.g. `en`, `zh-CN`           |
 * | `language`      | the server language key, e.g. `en_US`, `ja_JP`          |
 * | `terminal-code` | the terminal code kept in local storage                 |
 * | `device-id`     | the device id (fingerprint)                             |
 * | `trace-id`      | a fresh UUID per request; the signing hook signs it      |
 * | `tm`            | request time, milliseconds since the epoch (server clock |
 * |                 | when a `now` option aligns it); the spec names it `tm`  |
 * | `paptrading`    | `1` only in simulation (paper) trading mode             |
 * | `beta`          | `1` only in the beta environment                        |
 *
 * Signing headers (`device-sign`, `device-sign-mode`, ...) come from the
 * `beforeSend` hook, which `src/security` fills.
 */
export const Header = {
  WEBSITE: "website",
  TERMINAL_TYPE: "terminal-type",
  LOCALE: "locale",
  LANGUAGE: "language",
  TERMINAL_CODE: "terminal-code",
  DEVICE_ID: "device-id",
  TRACE_ID: "trace-id",
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
