import { isEncryptedPath, NOT_OFFERED_LOGIN_PATHS, type SignModeValue } from "@meridian/contracts";
import type { FastifyInstance, RouteOptions } from "fastify";

/**
 * The route table: every route the server answers, with the treatment its path gets.
 * Collected from the routes themselves as they are registered (Fastify `onRoute`), so
 * it cannot drift from what is served. The gateway's sign config is derived from it,
 * and the canonical-path property test and the input fuzz test iterate it.
 */
export interface RouteEntry {
  method: string;
  /** Route pattern as registered (`/v1/paper/orders/:id`). */
  url: string;
  /** Sign mode the route declares where it is defined (`config.sign`). */
  declaredSign: SignModeValue | undefined;
  /**
   * Sign mode the gateway checks on this route's paths once the app is ready: the declared
   * one, or the mode of a signed prefix that covers the path (see gateway-sign/config.ts);
   * undefined when unsigned or when signing is switched off.
   */
  sign: number | undefined;
  /** Body travels encrypted (login-type paths, docs/product.md §7). */
  encrypted: boolean;
  /** A guard admits logged-in users only. */
  user: boolean;
  /** A guard admits administrators only. */
  admin: boolean;
  /** A guard refuses cross-site writes (Origin / Sec-Fetch-Site). */
  csrf: boolean;
}

/** What a guard function checks; set where the guard is made, read by the table. */
export interface GuardTraits {
  user: boolean;
  admin: boolean;
  csrf: boolean;
}

// biome-ignore lint/complexity/noBannedTypes: guards of every hook shape are tagged
const traits = new WeakMap<Function, GuardTraits>();

/** Tags a guard with what it checks, so the route table can report it. Returns the guard. */
// biome-ignore lint/complexity/noBannedTypes: guards of every hook shape are tagged
export function markGuard<F extends Function>(guard: F, t: GuardTraits): F {
  traits.set(guard, t);
  return guard;
}

/** Tags `wrapper` with the traits of the guard it delegates to. */
// biome-ignore lint/complexity/noBannedTypes: guards of every hook shape are tagged
export function sameGuardAs<F extends Function>(wrapper: F, inner: Function): F {
  const t = traits.get(inner);
  if (t === undefined) throw new Error("sameGuardAs: the inner function is not a tagged guard");
  return markGuard(wrapper, t);
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** Gateway sign mode this route requires (docs/product.md §7); see modules/gateway-sign. */
    sign?: SignModeValue;
  }
  interface FastifyInstance {
    /** Every route registered so far (complete after `ready()`). */
    routeTable: readonly RouteEntry[];
  }
}

function hooksOf(route: RouteOptions): unknown[] {
  const out: unknown[] = [];
  for (const value of [route.onRequest, route.preValidation, route.preHandler]) {
    if (Array.isArray(value)) out.push(...value);
    else if (value !== undefined) out.push(value);
  }
  return out;
}

/** Starts collecting the table on the root instance; call before any route is registered. */
export function installRouteTable(app: FastifyInstance): void {
  const table: RouteEntry[] = [];
  // NOTE: the gateway (modules/gateway-sign) fills in each entry's effective `sign` on ready.
  app.decorate("routeTable", table);
  app.addHook("onRoute", (route) => {
    const guards = hooksOf(route)
      .map((fn) => (typeof fn === "function" ? traits.get(fn) : undefined))
      .filter((t): t is GuardTraits => t !== undefined);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      // HEAD routes are Fastify's automatic twins of GET routes.
      if (method === "HEAD" && route.url !== "*") continue;
      table.push({
        method,
        url: route.url,
        declaredSign: route.config?.sign,
        sign: route.config?.sign,
        // The login paths Meridian does not offer answer 11010 without reading the body.
        encrypted:
          method === "POST" &&
          isEncryptedPath(route.url) &&
          !(NOT_OFFERED_LOGIN_PATHS as readonly string[]).includes(route.url),
        user: guards.some((g) => g.user),
        admin: guards.some((g) => g.admin),
        csrf: guards.some((g) => g.csrf),
      });
    }
  });
}

/**
 * The table of an app built with `buildApp`, once `ready()` has run: the one place a
 * test (canonical-path property test, input fuzz test) iterates every route from.
 */
export function routeTable(app: FastifyInstance): readonly RouteEntry[] {
  return app.routeTable;
}

/** A concrete path for a route pattern: each `:param` becomes `sample` (and `*` too). */
export function samplePath(url: string, sample = "x1"): string {
  return url
    .split("/")
    .map((segment) => (segment.startsWith(":") || segment === "*" ? sample : segment))
    .join("/");
}
