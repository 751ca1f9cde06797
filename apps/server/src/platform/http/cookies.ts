import type { FastifyRequest } from "fastify";

/** Reads one cookie whether or not @fastify/cookie runs in this scope. */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const parsed = (request as FastifyRequest & { cookies?: Record<string, string | undefined> }).cookies;
  if (parsed !== undefined) return parsed[name];
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
