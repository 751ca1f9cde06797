import { Header } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";

declare module "fastify" {
  interface FastifyContextConfig {
    /** false: never rewrite image hosts in this route's answer (the domain-config call). */
    fastImage?: boolean;
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Rewrites image URLs on any allowed image host to `fastHost`, in every string of a
 * JSON value (HTML fragments included). Returns a copy; the input is not touched.
 */
export function createImageRewriter(allowedHosts: readonly string[]) {
  const allowed = new Set(allowedHosts.map((host) => host.toLowerCase()));
  const pattern =
    allowed.size === 0
      ? null
      : new RegExp(
          `(^|[^A-Za-z0-9.-])(https?:)?//(${[...allowed].map(escapeRegExp).join("|")})(?=[/?#:"'\\s)]|$)`,
          "gi",
        );

  const isAllowed = (host: string) => allowed.has(host.toLowerCase());

  function rewrite<T>(value: T, fastHost: string): T {
    if (pattern === null || !isAllowed(fastHost)) return value;
    const walk = (node: unknown): unknown => {
      if (typeof node === "string") {
        return node.includes("//")
          ? node.replace(
              pattern,
              (_match, lead: string, scheme: string | undefined) => `${lead}${scheme ?? ""}//${fastHost}`,
            )
          : node;
      }
      if (Array.isArray(node)) return node.map(walk);
      if (node !== null && typeof node === "object" && Object.getPrototypeOf(node) === Object.prototype) {
        const out: Record<string, unknown> = {};
        for (const [key, child] of Object.entries(node)) out[key] = walk(child);
        return out;
      }
      return node;
    };
    return walk(value) as T;
  }

  return { rewrite, isAllowed };
}

/**
 * When a request names an allowed host in `x-fast-img-domain`, image URLs in its JSON
 * answer are rewritten to that host (docs/product.md §4 and §7). Routes opt out with
 * `config: { fastImage: false }`.
 */
export function installFastImageRewrite(app: FastifyInstance, allowedHosts: readonly string[]): void {
  const rewriter = createImageRewriter(allowedHosts);
  app.addHook("preSerialization", async (request, _reply, payload: unknown) => {
    const fastHost = request.headers[Header.FAST_IMG_DOMAIN];
    if (typeof fastHost !== "string" || fastHost === "") return payload;
    if (request.routeOptions.config.fastImage === false || !rewriter.isAllowed(fastHost)) return payload;
    return rewriter.rewrite(payload, fastHost.toLowerCase());
  });
}
