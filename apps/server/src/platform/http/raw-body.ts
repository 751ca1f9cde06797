import type { FastifyRequest } from "fastify";

/**
 * The exact bytes of a request body that the `/v1` JSON parser read (api-edge.ts), kept
 * for whoever must check them as sent: the gateway's mode-2 signature hashes them. The
 * parser has them in hand anyway, so a signed write needs no second copy of its body
 * through a stream of its own.
 */
const rawBodies = new WeakMap<FastifyRequest, Buffer>();

export function keepRawBody(request: FastifyRequest, body: Buffer): void {
  rawBodies.set(request, body);
}

/** The body bytes the JSON parser read; undefined when no parser of this scope read any. */
export function rawBodyOf(request: FastifyRequest): Buffer | undefined {
  return rawBodies.get(request);
}

/** Whether the `/v1` JSON parser will read (and keep) this request's body. */
export function jsonBodyKept(request: FastifyRequest): boolean {
  const type = request.headers["content-type"];
  return (
    request.url.startsWith("/v1/") && typeof type === "string" && /^application\/json\s*(?:;|$)/i.test(type)
  );
}
