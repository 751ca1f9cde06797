import { PAPER_HEADER, PaperCode, SESSION_COOKIE } from "@meridian/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../platform/errors.ts";
import { sameGuardAs } from "../../platform/http/route-table.ts";
import { type AccountsService, authOf, readCookie, requireUser } from "../accounts/index.ts";
import type { LedgerService } from "./writer.ts";

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

/**
 * The paper account of a WebSocket upgrade's session (its cookie: browsers cannot add
 * headers to a WebSocket), opened on first use; throws the session's error when there is
 * no valid one. The streams of spot and futures log in with it.
 */
export type SessionAccount = (request: FastifyRequest) => Promise<number>;

/** The streams' login over the accounts service and the ledger (built by the composition root). */
export function sessionAccount(
  accounts: Pick<AccountsService, "authenticate">,
  ledger: Pick<LedgerService, "accountFor">,
): SessionAccount {
  return async (request) => {
    const { user } = await accounts.authenticate(readCookie(request, SESSION_COOKIE));
    return (await ledger.accountFor(user.id)).id;
  };
}
