import { PorPath } from "@meridian/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { route } from "../../platform/http/route.ts";
import { sameGuardAs } from "../../platform/http/route-table.ts";
import { authOf, requireAdmin, requireUser } from "../accounts/index.ts";
import type { PorService } from "./service.ts";
import { verifierScript } from "./verifier.ts";

/** `/v1/por/*` (thin: guard, service). */
export function porHttpRoutes(app: FastifyInstance, por: PorService): void {
  // Tagged with the guards they call, so the route table reports what they check.
  const user = sameGuardAs(async (request: FastifyRequest, reply: FastifyReply) => {
    await requireUser.call(app, request, reply);
  }, requireUser);
  const admin = sameGuardAs(async (request: FastifyRequest, reply: FastifyReply) => {
    await requireAdmin.call(app, request, reply);
  }, requireAdmin);
  route(app, { method: "GET", url: PorPath.SUMMARY, handler: () => por.summary() });
  route(app, {
    method: "GET",
    url: PorPath.PROOF,
    auth: user,
    handler: async ({ request }) => por.proof((await app.ledger.accountFor(authOf(request).user.id)).id),
  });
  route(app, {
    method: "POST",
    url: PorPath.BUILD,
    auth: admin,
    rateLimit: { limit: 6, windowMs: 60_000 },
    handler: () => por.build("admin"),
  });
  app.get(PorPath.VERIFIER, (_request, reply) =>
    reply
      .header("content-type", "text/javascript; charset=utf-8")
      .header("content-disposition", 'attachment; filename="por-verify.mjs"')
      .header("cache-control", "public, max-age=300")
      .send(verifierScript()),
  );
}
