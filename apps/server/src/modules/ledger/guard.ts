import { PAPER_HEADER, PaperCode } from "@meridian/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../platform/errors.ts";
import { sameGuardAs } from "../../platform/http/route-table.ts";
import { authOf, requireUser } from "../accounts/index.ts";

/**
 * The guard of every `/v1/paper/*` endpoint (spot, margin, futures). Only simulation
 * trading exists: a call without `paptrading: 1` is answered PAPER_ONLY (HTTP 200 with
 * the code, as the client reads codes), then the user must be logged in.
 */
export function paperGuard(app: FastifyInstance) {
  return sameGuardAs(async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.headers[PAPER_HEADER] !== "1") {
      throw new AppError(
        PaperCode.PAPER_ONLY,
        "Only simulation trading is available: send the paptrading: 1 header",
        { status: 200 },
      );
    }
    await requireUser.call(app, request, reply);
  }, requireUser);
}

/** The paper account id of a request that passed `paperGuard` (opened on first use). */
export async function paperAccountId(app: FastifyInstance, request: FastifyRequest): Promise<number> {
  return (await app.ledger.accountFor(authOf(request).user.id)).id;
}
