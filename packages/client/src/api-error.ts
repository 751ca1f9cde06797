/**
 * Why a call failed. `api` is a well-formed envelope with a non-success code;
 * the others are transport or protocol failures the server never answered cleanly.
 */
export type ApiErrorKind =
  | "api"
  | "http"
  | "status-error"
  | "too-many-requests"
  | "invalid-response"
  | "invalid-data"
  | "invalid-name"
  | "network"
  | "timeout"
  | "aborted";

/** Standard client messages for failures that carry no server message (docs/product.md §8). */
export const ClientMessage = {
  INVALID_NAME: "wrong api name!",
  NETWORK: "Network Error",
  TIMEOUT: (ms: number) => `timeout of ${ms}ms exceeded`,
  ABORTED: "Request aborted",
  TOO_MANY_REQUESTS: "Too Many Requests",
  INVALID_RESPONSE: "Invalid response",
  INVALID_DATA: "Response data failed validation",
} as const;

export interface ApiErrorInit {
  kind: ApiErrorKind;
  code: string;
  msg: string;
  data?: unknown;
  httpStatus?: number;
  api: string;
  cause?: unknown;
}

/**
 * Every rejection from the client is an `ApiError`: `code`/`msg`/`data` mirror the
 * envelope when there was one (`code` is "" otherwise), `httpStatus` is 0 when no
 * HTTP answer arrived (network error, timeout, abort, wrong name).
 */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly code: string;
  readonly msg: string;
  readonly data: unknown;
  readonly httpStatus: number;
  /** The api name the call was made with. */
  readonly api: string;

  constructor(init: ApiErrorInit) {
    super(init.msg, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "ApiError";
    this.kind = init.kind;
    this.code = init.code;
    this.msg = init.msg;
    this.data = init.data ?? null;
    this.httpStatus = init.httpStatus ?? 0;
    this.api = init.api;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
