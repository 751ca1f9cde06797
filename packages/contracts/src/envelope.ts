import { Code } from "./codes.ts";
import { z } from "./zod-csp.ts";

/** Every `/v1` answer: `{code, msg, data}` (docs/product.md §7). */
export interface Envelope<T> {
  code: string;
  msg: string;
  data: T;
}

export const envelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.string(), msg: z.string(), data });

export function ok<T>(data: T, msg = "success"): Envelope<T> {
  return { code: Code.OK, msg, data };
}

export function fail<T = null>(code: string, msg: string, data: T = null as T): Envelope<T> {
  return { code, msg, data };
}

/** Detail carried in `data` when a body fails its schema: which field, and why. */
export interface FieldIssue {
  field: string;
  rule: string;
  message: string;
}
