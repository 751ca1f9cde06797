import { AppError as PlatformAppError } from "../../platform/errors.ts";

/**
 * The accounts and gateway failures: business codes keep HTTP 200 because the spec's
 * client reads `code` (forced logout on 00004/20906/20205 "with HTTP 200", docs/product.md
 * section 8); `status` is set only where HTTP semantics help (403, 429).
 */
export class AppError extends PlatformAppError {
  constructor(
    code: string,
    msg: string,
    options: { data?: unknown; status?: number; headers?: Record<string, string> } = {},
  ) {
    super(code, msg, { status: 200, ...options });
  }
}
