import {
  borrowRepayBodySchema,
  MarginCode,
  MarginPath,
  marginAccountQuerySchema,
  marginAssetQuerySchema,
  marginOrderBodySchema,
  marginOrdersQuerySchema,
  marginRecordsQuerySchema,
  marginTestPriceBodySchema,
  orderIdParamsSchema,
  SignMode,
  walletTransferBodySchema,
} from "@meridian/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../../platform/errors.ts";
import { route } from "../../platform/http/route.ts";
import { authOf } from "../accounts/index.ts";
import { paperAccountId, paperGuard } from "../ledger/index.ts";
import type { MarginApi } from "./index.ts";

/** `/v1/paper/margin/*` and the wallet transfer (thin: guard, validate, service). */
export function marginHttpRoutes(app: FastifyInstance, margin: MarginApi, testPrices: boolean): void {
  const auth = paperGuard(app);
  const account = (request: FastifyRequest) => paperAccountId(app, request);

  route(app, { method: "GET", url: MarginPath.PAIRS, handler: () => margin.pairs() });
  route(app, {
    method: "GET",
    url: MarginPath.ACCOUNT,
    auth,
    query: marginAccountQuerySchema,
    handler: async ({ request, query }) =>
      margin.view(margin.scope(await account(request), query.mode, query.symbol)),
  });
  route(app, {
    method: "GET",
    url: MarginPath.ISOLATED_ACCOUNTS,
    auth,
    handler: async ({ request }) => margin.isolatedAccounts(await account(request)),
  });
  route(app, {
    method: "GET",
    url: MarginPath.MAX_BORROWABLE,
    auth,
    query: marginAssetQuerySchema,
    handler: async ({ request, query }) =>
      margin.maxBorrowable(margin.scope(await account(request), query.mode, query.symbol), query.asset),
  });
  route(app, {
    method: "GET",
    url: MarginPath.MAX_TRANSFERABLE,
    auth,
    query: marginAssetQuerySchema,
    handler: async ({ request, query }) =>
      margin.maxTransferable(margin.scope(await account(request), query.mode, query.symbol), query.asset),
  });
  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: MarginPath.BORROW,
    auth,
    body: borrowRepayBodySchema,
    handler: async ({ request, body }) => margin.borrow(await account(request), body),
  });
  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: MarginPath.REPAY,
    auth,
    body: borrowRepayBodySchema,
    handler: async ({ request, body }) => margin.repay(await account(request), body),
  });
  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: MarginPath.ORDERS,
    auth,
    body: marginOrderBodySchema,
    handler: async ({ request, body }) => {
      const id = await account(request);
      return margin.place(id, authOf(request).user.vip_level, body);
    },
  });
  route(app, {
    method: "GET",
    url: MarginPath.OPEN_ORDERS,
    auth,
    query: marginOrdersQuerySchema,
    handler: async ({ request, query }) => margin.openOrders({ ...query, accountId: await account(request) }),
  });
  route(app, {
    method: "GET",
    url: MarginPath.ORDER_HISTORY,
    auth,
    query: marginOrdersQuerySchema,
    handler: async ({ request, query }) =>
      margin.orderHistory({ ...query, accountId: await account(request) }),
  });
  route(app, {
    method: "DELETE",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: MarginPath.ORDER,
    auth,
    params: orderIdParamsSchema,
    handler: async ({ request, params }) => margin.cancel(await account(request), params.id),
  });
  route(app, {
    method: "GET",
    url: MarginPath.TRADES,
    auth,
    query: marginOrdersQuerySchema,
    handler: async ({ request, query }) => margin.trades({ ...query, accountId: await account(request) }),
  });
  route(app, {
    method: "GET",
    url: MarginPath.RECORDS,
    auth,
    query: marginRecordsQuerySchema,
    handler: async ({ request, query }) => margin.records({ ...query, accountId: await account(request) }),
  });
  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: MarginPath.TRANSFER,
    auth,
    body: walletTransferBodySchema,
    handler: async ({ request, body }) => margin.transfer(await account(request), body),
  });
  route(app, {
    method: "POST",
    url: MarginPath.TEST_PRICE,
    auth,
    body: marginTestPriceBodySchema,
    handler: async ({ body }) => {
      if (!testPrices) throw new AppError(MarginCode.TEST_PRICES_OFF, "Test prices are off", { status: 200 });
      return margin.pinPrice(body.symbol, body.price);
    },
  });
}
