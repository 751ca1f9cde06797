/**
 * Validation and rejection errors as data. The service maps `code` once at the
 * edge to the API envelope and i18n text; nothing in the domain throws strings.
 */
export const DomainCode = {
  INVALID_DECIMAL: "INVALID_DECIMAL",
  PRICE_TOO_PRECISE: "PRICE_TOO_PRECISE",
  PRICE_NOT_ON_TICK: "PRICE_NOT_ON_TICK",
  PRICE_OUT_OF_RANGE: "PRICE_OUT_OF_RANGE",
  QTY_TOO_PRECISE: "QTY_TOO_PRECISE",
  QTY_NOT_ON_LOT: "QTY_NOT_ON_LOT",
  QTY_OUT_OF_RANGE: "QTY_OUT_OF_RANGE",
  NOTIONAL_TOO_SMALL: "NOTIONAL_TOO_SMALL",
  NOT_SAFE_INTEGER: "NOT_SAFE_INTEGER",
  INVALID_SPEC: "INVALID_SPEC",
  INVALID_ORDER: "INVALID_ORDER",
  DUPLICATE_ORDER_ID: "DUPLICATE_ORDER_ID",
  ORDER_NOT_FOUND: "ORDER_NOT_FOUND",
  POST_ONLY_WOULD_TAKE: "POST_ONLY_WOULD_TAKE",
  STOP_WOULD_TRIGGER: "STOP_WOULD_TRIGGER",
  TPSL_INVALID: "TPSL_INVALID",
  LEVEL_OVERFLOW: "LEVEL_OVERFLOW",
} as const;

export type DomainCode = (typeof DomainCode)[keyof typeof DomainCode];

export interface DomainError {
  readonly code: DomainCode;
  /** The input field at fault (`price`, `qty`, `stopPrice`, ...), or "" when none. */
  readonly field: string;
  /** Values the message template needs (limits, tick size, ...), all strings. */
  readonly params: Readonly<Record<string, string>>;
}

export type Result<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: DomainError };

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

export function domainError(
  code: DomainCode,
  field = "",
  params: Readonly<Record<string, string>> = NO_PARAMS,
): DomainError {
  return Object.freeze({ code, field, params });
}

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T>(error: DomainError): Result<T> {
  return { ok: false, error };
}
