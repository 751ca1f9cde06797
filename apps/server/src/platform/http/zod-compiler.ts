import type { FastifySchemaCompiler } from "fastify";
import { z } from "zod";

/**
 * Replaces Fastify's JSON-schema validator: route schemas are zod schemas, parsed
 * (so defaults and coercions apply) and failures thrown as ZodError, which the API
 * edge maps to 10422 with one `{field, rule, message}` per issue.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, method, url, httpPart }) => {
  if (!(schema instanceof z.ZodType)) {
    throw new Error(`${method} ${url}: the ${httpPart ?? "request"} schema must be a zod schema`);
  }
  return (data: unknown) => {
    let result = schema.safeParse(data);
    // Fastify hands a missing body over as null. A POST without a body (or a JSON `null`)
    // reads as `{}`, so the issues name the missing fields rather than the body.
    if (!result.success && data === null && httpPart === "body") result = schema.safeParse({});
    return result.success ? { value: result.data } : { error: result.error };
  };
};
