import { Code, type FieldIssue } from "@meridian/contracts";
import type { z } from "zod";
import { BusinessError } from "../../platform/errors.ts";

/** Parses a body with zod; a failure answers 10422 with the field issues as data. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issues: FieldIssue[] = result.error.issues.map((i) => ({
    field: i.path.join("."),
    rule: i.code,
    message: i.message,
  }));
  const first = issues[0];
  throw new BusinessError(
    Code.VALIDATION_FAILED,
    first === undefined ? "Invalid request" : `Invalid ${first.field}: ${first.message}`,
    {
      status: 400,
      data: issues,
    },
  );
}
