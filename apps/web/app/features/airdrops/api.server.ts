import { Code, isSuccessCode } from "@meridian/contracts";
import { data, type RouterContextProvider } from "react-router";
import { readServerContext } from "../../lib/server-context.server.ts";
import type { ServerContext } from "../../server-context.ts";

/** The Fastify context, or a 503 page when the app runs without it. */
export function serverOf(context: Readonly<RouterContextProvider> | undefined): ServerContext {
  const server = readServerContext(context);
  if (!server) throw data(null, { status: 503 });
  return server;
}

/**
 * Calls a `/v1` read in-process and unwraps the envelope. Not found (and a malformed
 * slug, which the API rejects as invalid) becomes a real 404 page.
 */
export async function apiGet<T>(server: ServerContext, path: string): Promise<T> {
  const answer = await server.api<T>(path);
  if (answer.code === Code.NOT_FOUND || answer.code === Code.VALIDATION_FAILED) {
    throw data(null, { status: 404 });
  }
  if (!isSuccessCode(answer.code)) throw new Error(`${path}: ${answer.code} ${answer.msg}`);
  return answer.data;
}
