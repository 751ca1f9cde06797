import { PorPath } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { route } from "../../platform/http/route.ts";
import { authOf, routeGuards } from "../accounts/index.ts";
import type { LedgerApi } from "../ledger/index.ts";
import type { PorService } from "./service.ts";
import { verifierScript } from "./verifier.ts";

/** `/v1/por/*` (thin: guard, service). */
export function porHttpRoutes(
  app: FastifyInstance,
  por: PorService,
  accounts: Pick<LedgerApi, "accountFor">,
): void {
  const { user, admin } = routeGuards(app);
  route(app, { method: "GET", url: PorPath.SUMMARY, handler: () => por.summary() });
  route(app, {
    method: "GET",
    url: PorPath.PROOF,
    auth: user,
    handler: async ({ request }) => por.proof((await accounts.accountFor(authOf(request).user.id)).id),
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
