import crypto from "node:crypto";
import {
  ADMIN_CONTENT_API,
  Code,
  cspSecurityReportSchema,
  fail,
  ok,
  SESSION_COOKIE,
  securityReportQuerySchema,
} from "@meridian/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../../platform/db/types.ts";
import { readCookie } from "../../platform/http/cookies.ts";
import { route } from "../../platform/http/route.ts";
import { listReports } from "./repo.ts";

/** Reports are small: a bigger body is refused before parsing. */
export const REPORT_BODY_LIMIT = 8_192;
const PER_IP_PER_MINUTE = 30;

export interface SecurityReportDeps {
  db: Db;
  /** The user id behind a session token, when it is a live session. */
  userIdOf(token: string): Promise<string | undefined>;
  /** The accounts module's admin guard (admin role; same-origin writes). */
  requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  now?: () => number;
}

/** Longest user agent kept: enough for every real browser string. */
const USER_AGENT_MAX = 512;

/**
 * POST /v1/buried/log/cspSecurity: client security events (docs/product.md §7, 8), stored for
 * review; GET /v1/admin/security-reports: the review list, administrators only.
 */
export function securityReportRoutes(app: FastifyInstance, deps: SecurityReportDeps): void {
  const now = deps.now ?? Date.now;
  const counts = new Map<string, { minute: number; n: number }>();

  app.post("/v1/buried/log/cspSecurity", { bodyLimit: REPORT_BODY_LIMIT }, async (request, reply) => {
    const t = now();
    const minute = Math.floor(t / 60_000);
    const c = counts.get(request.ip);
    if (c === undefined || c.minute !== minute) {
      if (counts.size > 50_000) counts.clear();
      counts.set(request.ip, { minute, n: 1 });
    } else if (++c.n > PER_IP_PER_MINUTE) {
      return reply.status(429).send(fail(Code.TOO_MANY_REQUESTS, "Too many reports"));
    }
    const parsed = cspSecurityReportSchema.safeParse(request.body);
    if (!parsed.success) return reply.send(fail(Code.VALIDATION_FAILED, "Invalid report"));
    const r = parsed.data;
    const token = readCookie(request, SESSION_COOKIE);
    const userId = token === undefined ? undefined : await deps.userIdOf(token);
    const ua = request.headers["user-agent"];
    await deps.db.run(
      "INSERT INTO security_reports (id, biz_type, event, reason, page, client_ts, user_id, ip, user_agent, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      [
        crypto.randomUUID(),
        r.bizType,
        r.data.event,
        r.data.reason,
        r.page,
        r.timestamp,
        userId ?? null,
        request.ip,
        typeof ua === "string" ? ua.slice(0, USER_AGENT_MAX) : "",
        t,
      ],
    );
    return ok(null);
  });

  route(app, {
    method: "GET",
    url: ADMIN_CONTENT_API.securityReports,
    auth: deps.requireAdmin,
    query: securityReportQuerySchema,
    handler: ({ query }) => listReports(deps.db, query),
  });
}
