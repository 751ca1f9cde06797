import {
  accountQuerySchema,
  closeAllBodySchema,
  FuturesCode,
  FuturesPath,
  familyQuerySchema,
  futuresOrderBodySchema,
  futuresOrderIdParamsSchema,
  futuresQuerySchema,
  insuranceFundQuerySchema,
  leverageBodySchema,
  marginModeBodySchema,
  positionHistoryQuerySchema,
  positionMarginBodySchema,
  positionMarginQuerySchema,
  positionModeBodySchema,
  SignMode,
  settingsQuerySchema,
  testMarkBodySchema,
  tpslBodySchema,
  transferBodySchema,
} from "@meridian/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../../platform/errors.ts";
import { route } from "../../platform/http/route.ts";
import { paperAccountId, paperGuard } from "../ledger/index.ts";
import type { FuturesApi } from "./index.ts";

/** `/v1/paper/futures/*` (thin: guard, validate, service, present). */
export function futuresHttpRoutes(app: FastifyInstance, futures: FuturesApi, testMarks: boolean): void {
  const auth = paperGuard(app);
  const account = (request: FastifyRequest) => paperAccountId(app, request);

  route(app, {
    method: "GET",
    url: FuturesPath.ACCOUNT,
    auth,
    query: accountQuerySchema,
    handler: async ({ request, query }) => futures.account(await account(request), query.marginCoin),
  });
  route(app, {
    method: "GET",
    url: FuturesPath.WALLETS,
    auth,
    query: familyQuerySchema,
    handler: async ({ request, query }) => futures.wallets(await account(request), query.family),
  });
  route(app, {
    method: "GET",
    url: FuturesPath.POSITIONS,
    auth,
    query: familyQuerySchema,
    handler: async ({ request, query }) => futures.positions(await account(request), query.family),
  });
  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: FuturesPath.CLOSE_ALL,
    auth,
    body: closeAllBodySchema,
    handler: async ({ request, body }) => futures.closeAll(await account(request), body.symbol),
  });
  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: FuturesPath.TPSL,
    auth,
    body: tpslBodySchema,
    handler: async ({ request, body }) => futures.setTpsl(await account(request), body),
  });
  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: FuturesPath.POSITION_MARGIN,
    auth,
    body: positionMarginBodySchema,
    handler: async ({ request, body }) => futures.adjustMargin(await account(request), body),
  });
  route(app, {
    method: "GET",
    url: FuturesPath.POSITION_MARGIN,
    auth,
    query: positionMarginQuerySchema,
    handler: async ({ request, query }) => futures.marginInfo(await account(request), query),
  });
  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: FuturesPath.ORDERS,
    auth,
    body: futuresOrderBodySchema,
    handler: async ({ request, body }) => futures.place(await account(request), body),
  });
  route(app, {
    method: "DELETE",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: FuturesPath.ORDER,
    auth,
    params: futuresOrderIdParamsSchema,
    handler: async ({ request, params }) => futures.cancel(await account(request), { id: params.id }),
  });
  route(app, {
    method: "GET",
    url: FuturesPath.OPEN_ORDERS,
    auth,
    query: futuresQuerySchema,
    handler: async ({ request, query }) =>
      futures.openOrders({ ...query, accountId: await account(request) }),
  });
  route(app, {
    method: "GET",
    url: FuturesPath.ORDER_HISTORY,
    auth,
    query: futuresQuerySchema,
    handler: async ({ request, query }) =>
      futures.orderHistory({ ...query, accountId: await account(request) }),
  });
  route(app, {
    method: "GET",
    url: FuturesPath.TRADES,
    auth,
    query: futuresQuerySchema,
    handler: async ({ request, query }) => futures.trades({ ...query, accountId: await account(request) }),
  });
  route(app, {
    method: "GET",
    url: FuturesPath.ORDER,
    auth,
    params: futuresOrderIdParamsSchema,
    handler: async ({ request, params }) => futures.orderDetail(await account(request), params.id),
  });
  route(app, {
    method: "GET",
    url: FuturesPath.POSITION_HISTORY,
    auth,
    query: positionHistoryQuerySchema,
    handler: async ({ request, query }) => futures.positionHistory(await account(request), query),
  });
  route(app, {
    method: "GET",
    url: FuturesPath.FUNDING,
    auth,
    query: futuresQuerySchema,
    handler: async ({ request, query }) => futures.funding({ ...query, accountId: await account(request) }),
  });
  route(app, {
    method: "GET",
    url: FuturesPath.SETTINGS,
    auth,
    query: settingsQuerySchema,
    handler: async ({ request, query }) => futures.settings(await account(request), query.symbol),
  });
  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: FuturesPath.LEVERAGE,
    auth,
    body: leverageBodySchema,
    handler: async ({ request, body }) =>
      futures.setLeverage(await account(request), body.symbol, body.leverage),
  });
  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: FuturesPath.MARGIN_MODE,
    auth,
    body: marginModeBodySchema,
    handler: async ({ request, body }) =>
      futures.setMarginMode(await account(request), body.symbol, body.marginMode),
  });
  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: FuturesPath.POSITION_MODE,
    auth,
    body: positionModeBodySchema,
    handler: async ({ request, body }) =>
      futures.setPositionMode(await account(request), body.dualSidePosition),
  });
  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: FuturesPath.TRANSFER,
    auth,
    body: transferBodySchema,
    handler: async ({ request, body }) => (await futures.transfer(await account(request), body)).account,
  });
  route(app, {
    method: "GET",
    url: FuturesPath.INSURANCE_FUND,
    query: insuranceFundQuerySchema,
    handler: ({ query }) => futures.insuranceFund(query.asset),
  });
  route(app, {
    method: "GET",
    url: FuturesPath.MARKS,
    query: familyQuerySchema,
    handler: ({ query }) => futures.marksList(query.family),
  });
  route(app, {
    method: "POST",
    url: FuturesPath.TEST_MARK,
    auth,
    body: testMarkBodySchema,
    handler: async ({ body }) => {
      if (!testMarks) throw new AppError(FuturesCode.TEST_MARKS_OFF, "Test marks are off", { status: 200 });
      return futures.pinMark(body.symbol, body.price);
    },
  });
}
