import {
  clientOrderIdParamsSchema,
  orderIdParamsSchema,
  ordersQuerySchema,
  PaperCode,
  PaperPath,
  placeOrderBodySchema,
  SignMode,
  StatementPath,
  statementQuerySchema,
  testTradeBodySchema,
  topUpBodySchema,
} from "@meridian/contracts";
import { priceToTicks } from "@meridian/domain";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError, errors } from "../../platform/errors.ts";
import { route } from "../../platform/http/route.ts";
import { authOf } from "../accounts/index.ts";
import { type LedgerApi, paperGuard, type StatementReader } from "../ledger/index.ts";
import type { PaperApi } from "./index.ts";
import type { PaperVenue } from "./venue.ts";

/**
 * The `/v1/paper/*` REST endpoints (thin: guard, validate, service, present).
 * `testVenue`: where the test-only trade endpoint prints (absent: that endpoint answers 13011).
 */
export function paperHttpRoutes(
  app: FastifyInstance,
  paper: PaperApi,
  ledger: LedgerApi,
  statement: StatementReader,
  testVenue?: PaperVenue,
): void {
  const auth = paperGuard(app);
  const ctx = async (request: FastifyRequest) => {
    const { user } = authOf(request);
    const { id } = await ledger.accountFor(user.id);
    return { accountId: id, vipLevel: user.vip_level };
  };

  route(app, {
    method: "GET",
    url: StatementPath.BILLS,
    auth,
    query: statementQuerySchema,
    handler: async ({ request, query }) => statement.page((await ctx(request)).accountId, query),
  });
  // The export answers CSV, not the envelope, so it is declared without `route` (same guard and schema).
  app.route({
    method: "GET",
    url: StatementPath.EXPORT,
    preValidation: auth,
    schema: { querystring: statementQuerySchema },
    handler: async (request, reply) => {
      const query = request.query as Parameters<StatementReader["csv"]>[1];
      const csv = await statement.csv((await ctx(request)).accountId, query);
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="meridian-transactions.csv"')
        .header("cache-control", "no-store")
        .send(csv);
    },
  });

  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: PaperPath.ACTIVATE,
    auth,
    handler: ({ request }) => paper.account(authOf(request).user.id),
  });
  route(app, {
    method: "GET",
    url: PaperPath.ACCOUNT,
    auth,
    handler: ({ request }) => paper.account(authOf(request).user.id),
  });
  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: PaperPath.ORDERS,
    auth,
    body: placeOrderBodySchema,
    handler: async ({ request, body }) => {
      const c = await ctx(request);
      return paper.place(c.accountId, c.vipLevel, body);
    },
  });
  route(app, {
    method: "DELETE",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: PaperPath.ORDER_BY_CLIENT_ID,
    auth,
    params: clientOrderIdParamsSchema,
    handler: async ({ request, params }) =>
      paper.cancel((await ctx(request)).accountId, { clientOrderId: params.clientOrderId }),
  });
  route(app, {
    method: "DELETE",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: PaperPath.ORDER,
    auth,
    params: orderIdParamsSchema,
    handler: async ({ request, params }) => paper.cancel((await ctx(request)).accountId, { id: params.id }),
  });
  route(app, {
    method: "GET",
    url: PaperPath.OPEN_ORDERS,
    auth,
    query: ordersQuerySchema,
    handler: async ({ request, query }) =>
      paper.openOrders({ ...query, accountId: (await ctx(request)).accountId }),
  });
  route(app, {
    method: "GET",
    url: PaperPath.ORDER_HISTORY,
    auth,
    query: ordersQuerySchema,
    handler: async ({ request, query }) =>
      paper.orderHistory({ ...query, accountId: (await ctx(request)).accountId }),
  });
  route(app, {
    method: "GET",
    url: PaperPath.TRADES,
    auth,
    query: ordersQuerySchema,
    handler: async ({ request, query }) =>
      paper.trades({ ...query, accountId: (await ctx(request)).accountId }),
  });
  route(app, {
    method: "GET",
    url: PaperPath.BALANCES,
    auth,
    handler: async ({ request }) => paper.balances((await ctx(request)).accountId),
  });
  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: PaperPath.TOPUP,
    auth,
    body: topUpBodySchema,
    handler: async ({ request, body }) =>
      paper.topUp((await ctx(request)).accountId, body.asset, body.amount),
  });
  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: PaperPath.RESET,
    auth,
    handler: async ({ request }) => paper.reset((await ctx(request)).accountId),
  });
  route(app, {
    method: "GET",
    url: PaperPath.FEES,
    auth,
    handler: ({ request }) => paper.fees(authOf(request).user.vip_level),
  });
  route(app, {
    method: "POST",
    url: PaperPath.TEST_TRADE,
    auth,
    body: testTradeBodySchema,
    handler: ({ body }) => {
      if (testVenue === undefined)
        throw new AppError(PaperCode.TEST_TRADES_OFF, "Test trades are off", { status: 200 });
      const spec = testVenue.spec(body.symbol);
      if (spec === undefined) throw new AppError(PaperCode.UNKNOWN_SYMBOL, "Unknown symbol", { status: 200 });
      const ticks = priceToTicks(spec, body.price);
      if (!ticks.ok || ticks.value <= 0)
        throw errors.validation([
          { field: "price", rule: "tick", message: "Not a positive price on the tick" },
        ]);
      testVenue.printTrade(body.symbol, ticks.value);
      return { symbol: body.symbol, price: body.price };
    },
  });
}
