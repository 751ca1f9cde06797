import { Code, type CodeValue, type FieldIssue } from "@meridian/contracts";

/**
 * An error with a stable code from the catalogue, mapped once at the edge to
 * `{code, msg, data}` with `status`. Anything else thrown becomes a 500 INTERNAL.
 */
export class AppError<T = unknown> extends Error {
  override name = "AppError";
  readonly code: string;
  readonly status: number;
  readonly data: T | null;
  readonly headers: Record<string, string>;

  constructor(
    code: CodeValue | string,
    message: string,
    options: { status?: number; data?: T; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status ?? 400;
    this.data = options.data ?? null;
    this.headers = options.headers ?? {};
  }
}

/** Constructors for the edge errors every module may raise. */
export const errors = {
  notFound: (msg = "Not found") => new AppError(Code.NOT_FOUND, msg, { status: 404 }),
  methodNotAllowed: (method: string, allowed: string[]) =>
    new AppError(Code.METHOD_NOT_ALLOWED, `Method ${method} not allowed; use ${allowed.join(", ")}`, {
      status: 405,
      headers: { allow: allowed.join(", ") },
    }),
  validation: (issues: FieldIssue[]) => {
    const first = issues[0];
    const msg = first ? `Invalid ${first.field}: ${first.message}` : "Invalid request";
    return new AppError<FieldIssue[]>(Code.VALIDATION_FAILED, msg, { status: 400, data: issues });
  },
  tooManyRequests: (retryAfterMs: number) =>
    new AppError(Code.TOO_MANY_REQUESTS, "Too many requests, please try again later", {
      status: 429,
      headers: { "retry-after": String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
    }),
  unauthenticated: (msg = "Please log in first") => new AppError(Code.UNAUTHENTICATED, msg, { status: 401 }),
  forbidden: (msg = "You do not have permission to do this") =>
    new AppError(Code.FORBIDDEN, msg, { status: 403 }),
  conflict: (msg: string) => new AppError(Code.CONFLICT, msg, { status: 409 }),
  unavailable: (msg = "Service temporarily unavailable") =>
    new AppError(Code.UNAVAILABLE, msg, { status: 503 }),
};

/**
 * A business failure of the accounts and gateway calls: HTTP 200 unless `status` says
 * otherwise, because the client reads `code` (forced logout on 00004/20906/20205 "with
 * HTTP 200", docs/product.md section 8); `status` is set only where HTTP semantics help
 * (403, 429).
 */
export class BusinessError extends AppError {
  constructor(
    code: string,
    msg: string,
    options: { data?: unknown; status?: number; headers?: Record<string, string> } = {},
  ) {
    super(code, msg, { status: 200, ...options });
  }
}
