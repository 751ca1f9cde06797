/**
 * Drives the stock ccxt `bitget` class (sandbox mode, nothing changed but its URLs) through
 * every method of the support table in docs/bot-api.md against a running server
 * (`npm start`), as issue 30's "done when" asks. One line per call: the method, `ok` or
 * the ccxt exception class and message. Nothing asserts: a method marked "not on paper"
 * is expected to print its documented exception.
 *
 *   DRIVE_URL=http://127.0.0.1:3917 DRIVE_USER=demo@meridian.example:<password> \
 *     DRIVE_LOG=<the server's log file> npx node scripts/bot-api-drive.ts
 *
 * It logs in as DRIVE_USER (the login body sealed as the web page seals it, no device key
 * bound), activates the paper account, makes an API key and deletes it at the end. The
 * script keeps no device cookie, so its password login is a new device and asks for the
 * code mailed to the account (docs/accounts.md, "New devices"): without SMTP_URL the
 * server writes that mail to its log, which DRIVE_LOG names; the newest code there is used.
 */
import { readFileSync } from "node:fs";
import { encryptLoginBody, verifyServerKey } from "@meridian/client";
import { gatewaySignConfigSchema } from "@meridian/contracts";
import ccxt from "ccxt";

const base = process.env.DRIVE_URL ?? "http://127.0.0.1:3917";
const [user = "", pwd = ""] = (process.env.DRIVE_USER ?? "").split(/:(.*)/s);

async function web(method: string, path: string, cookie: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      origin: base,
      cookie,
      paptrading: "1",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { res, json: (await res.json()) as { code: string; msg: string; data: unknown } };
}

async function login(): Promise<string> {
  const cfg = (await (await fetch(`${base}/v1/mix/config/gatewaySignConfig`)).json()) as {
    data: { gatewaySignConfig: unknown };
  };
  const key = await verifyServerKey(gatewaySignConfigSchema.parse(cfg.data.gatewaySignConfig));
  const sealed = await encryptLoginBody("/v1/user/login", { loginName: user, pwd }, key, Date.now());
  let { res, json } = await web("POST", "/v1/user/login", "", sealed);
  const challenge = json.data as {
    verifyRequired?: boolean;
    verifyToken?: string;
    methods?: string[];
  } | null;
  if (challenge?.verifyRequired && challenge.methods?.[0] === "email") {
    const log = process.env.DRIVE_LOG;
    if (!log) throw new Error("the login asks for the e-mailed code: set DRIVE_LOG to the server's log file");
    const codes = [...readFileSync(log, "utf8").matchAll(/Your verification code is (\d{6})/g)];
    const emailCode = codes.at(-1)?.[1];
    if (!emailCode) throw new Error(`no verification code in ${log}`);
    const path = "/v1/user/login/verify-login";
    const body = { verifyToken: challenge.verifyToken, emailCode };
    ({ res, json } = await web("POST", path, "", await encryptLoginBody(path, body, key, Date.now())));
  }
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!cookie.includes("=")) throw new Error(`login failed: ${json.code} ${json.msg}`);
  return cookie;
}

async function main(): Promise<void> {
  const cookie = await login();
  await web("POST", "/v1/paper/account/activate", cookie);
  const passphrase = "Drive12345";
  const made = await web("POST", "/v1/user/api-keys", cookie, {
    label: "drive",
    permissions: ["read", "spot_trade", "futures_trade", "transfer"],
    passphrase,
    ips: [],
  });
  if (made.json.code !== "00000") throw new Error(`key: ${made.json.code} ${made.json.msg}`);
  const k = made.json.data as { apiKey: string; secret: string };
  const ws = base.replace(/^http/, "ws");
  const ex = new ccxt.pro.bitget({
    apiKey: k.apiKey,
    secret: k.secret,
    password: passphrase,
    options: { uta: false },
  });
  const api = ex.urls.api as Record<string, unknown>;
  for (const key of [
    "spot",
    "mix",
    "user",
    "p2p",
    "broker",
    "margin",
    "common",
    "tax",
    "convert",
    "copy",
    "earn",
    "uta",
  ])
    api[key] = base;
  const sockets = { public: `${ws}/v2/ws/public`, private: `${ws}/v2/ws/private` };
  api.ws = { ...(api.ws as object), ...sockets };
  api.demo = { ...(api.demo as object), ...sockets };
  ex.setSandboxMode(true);
  await ex.loadHttpProxyAgent();

  let failures = 0;
  const run = async <T>(name: string, f: () => Promise<T>, expect?: string): Promise<T | undefined> => {
    try {
      const v = await f();
      console.log(`${name}\tok${expect === undefined ? "" : `\tEXPECTED ${expect}`}`);
      if (expect !== undefined) failures += 1;
      return v;
    } catch (e) {
      const cls = e instanceof Error ? e.constructor.name : "Error";
      const ok = expect !== undefined && cls === expect;
      if (!ok) failures += 1;
      console.log(
        `${name}\t${ok ? "ok (raises " : "FAIL "}${cls}${ok ? ")" : `: ${String(e).slice(0, 200)}`}`,
      );
      return undefined;
    }
  };
  const S = "BTC/USDT:USDT";
  const P = "BTC/USDT";
  const id = (o: { id?: string } | undefined) => o?.id ?? "";

  await run("loadMarkets", () => ex.loadMarkets());
  await run("fetchTime", () => ex.fetchTime());
  const t = await run("fetchTicker spot", () => ex.fetchTicker(P));
  const last = t?.last ?? 50_000;
  await run("fetchTickers swap", () => ex.fetchTickers([S]));
  await run("fetchOrderBook", () => ex.fetchOrderBook(P, 5));
  await run("fetchOHLCV", () => ex.fetchOHLCV(P, "1m", undefined, 5));
  await run("fetchOHLCV mark", () => ex.fetchOHLCV(S, "1m", undefined, 5, { price: "mark" }));
  await run("fetchOHLCV index", () => ex.fetchOHLCV(S, "1m", undefined, 5, { price: "index" }));
  await run("fetchTrades", () => ex.fetchTrades(P, undefined, 5));
  await run("fetchFundingRate", () => ex.fetchFundingRate(S));
  await run("fetchFundingRateHistory", () => ex.fetchFundingRateHistory(S));
  const mark = (await run("fetchMarkPrice", () => ex.fetchMarkPrice(S)))?.markPrice ?? last;
  await run("fetchOpenInterest", () => ex.fetchOpenInterest(S));
  await run("fetchTradingFee", () => ex.fetchTradingFee(P));
  await run("fetchBalance spot", () => ex.fetchBalance());
  await run("transfer spot->swap", () => ex.transfer("USDT", 500, "spot", "swap"));
  await run("fetchTransfers", () => ex.fetchTransfers("USDT"));
  await run("fetchBalance swap", () => ex.fetchBalance({ type: "swap" }));
  await run("transfer spot->cross", () => ex.transfer("USDT", 100, "spot", "cross"));
  await run("fetchBalance cross", () => ex.fetchBalance({ marginMode: "cross" }));
  await run("transfer spot->isolated", () =>
    ex.transfer("USDT", 100, "spot", "isolated", { symbol: "BTCUSDT" }),
  );
  await run("fetchBalance isolated", () => ex.fetchBalance({ marginMode: "isolated" }));

  // spot
  const low = Math.round(last * 0.6);
  const lim = await run("createOrder spot limit", () => ex.createOrder(P, "limit", "buy", 0.001, low));
  await run("fetchOrder spot", () => ex.fetchOrder(id(lim), P));
  await run("fetchOpenOrders spot", () => ex.fetchOpenOrders(P));
  const edited = await run("editOrder spot", () => ex.editOrder(id(lim), P, "limit", "buy", 0.002, low + 1));
  await run("cancelOrder spot", () => ex.cancelOrder(id(edited), P));
  await run("createOrder spot market buy", () => ex.createOrder(P, "market", "buy", 0.001, last));
  await run("createOrder spot market sell", () => ex.createOrder(P, "market", "sell", 0.0005));
  const trig = await run("createOrder spot trigger", () =>
    ex.createOrder(P, "limit", "sell", 0.001, low - 10, { triggerPrice: low }),
  );
  const trig2 = await run("editOrder spot trigger", () =>
    ex.editOrder(id(trig), P, "limit", "sell", 0.001, low - 20, { triggerPrice: low - 5 }),
  );
  await run("fetchOpenOrders spot trigger", () =>
    ex.fetchOpenOrders(P, undefined, undefined, { trigger: true }),
  );
  await run("cancelOrder spot trigger", () => ex.cancelOrder(id(trig2), P, { trigger: true }));
  await run("createOrder spot stop-market buy", () =>
    ex.createOrder(P, "market", "buy", 0.001, Math.round(last * 1.5), {
      triggerPrice: Math.round(last * 1.5),
    }),
  );
  await run("cancelAllOrders spot trigger", () => ex.cancelAllOrders(P, { trigger: true }));
  const batch = await run("createOrders spot", () =>
    ex.createOrders([
      { symbol: P, type: "limit", side: "buy", amount: 0.001, price: low },
      { symbol: P, type: "limit", side: "buy", amount: 0.001, price: low - 1 },
    ]),
  );
  await run("cancelOrders spot", () => ex.cancelOrders((batch ?? []).map(id), P));
  await run("createOrder spot limit (for cancelAll)", () => ex.createOrder(P, "limit", "buy", 0.001, low));
  await run("cancelAllOrders spot", () => ex.cancelAllOrders(P));
  await run("fetchClosedOrders spot", () => ex.fetchClosedOrders(P));
  await run("fetchCanceledOrders spot", () => ex.fetchCanceledOrders(P));
  await run("fetchMyTrades spot", () => ex.fetchMyTrades(P));
  await run("fetchLedger spot", () => ex.fetchLedger("USDT"));

  // margin
  await run("borrowCrossMargin", () => ex.borrowCrossMargin("USDT", 10));
  await run("repayCrossMargin", () => ex.repayCrossMargin("USDT", 10));
  await run("borrowIsolatedMargin", () => ex.borrowIsolatedMargin(P, "USDT", 10));
  await run("repayIsolatedMargin", () => ex.repayIsolatedMargin(P, "USDT", 10));
  await run("fetchCrossBorrowRate", () => ex.fetchCrossBorrowRate("USDT"));
  await run("fetchIsolatedBorrowRate", () => ex.fetchIsolatedBorrowRate(P));
  await run("fetchBorrowInterest", () =>
    ex.fetchBorrowInterest("USDT", undefined, undefined, undefined, { marginMode: "cross" }),
  );
  const mo = await run("createOrder cross limit", () =>
    ex.createOrder(P, "limit", "buy", 0.001, low, { marginMode: "cross" }),
  );
  await run("fetchOpenOrders cross", () =>
    ex.fetchOpenOrders(P, undefined, undefined, { marginMode: "cross" }),
  );
  await run("cancelOrder cross", () => ex.cancelOrder(id(mo), P, { marginMode: "cross" }));
  await run("createOrder isolated market autoLoan", () =>
    ex.createOrder(P, "market", "buy", 0.0002, last, { marginMode: "isolated", loanType: "autoLoan" }),
  );
  await run("fetchMyTrades isolated", () =>
    ex.fetchMyTrades(P, undefined, undefined, { marginMode: "isolated" }),
  );
  await run("fetchCanceledOrders cross", () =>
    ex.fetchCanceledOrders(P, undefined, undefined, { marginMode: "cross" }),
  );

  // swap
  await run("setPositionMode one-way", () => ex.setPositionMode(false, S));
  await run("setMarginMode cross", () => ex.setMarginMode("cross", S));
  await run("setLeverage", () => ex.setLeverage(5, S));
  await run("fetchLeverage", () => ex.fetchLeverage(S));
  const m = Math.round(mark);
  const opened = await run("createOrder swap market with TP/SL", () =>
    ex.createOrder(S, "market", "buy", 0.01, undefined, {
      takeProfit: { triggerPrice: Math.round(m * 1.3) },
      stopLoss: { triggerPrice: Math.round(m * 0.7) },
    }),
  );
  await run("fetchOrder swap", () => ex.fetchOrder(id(opened), S));
  await run("fetchPositions", () => ex.fetchPositions([S]));
  await run("fetchPosition", () => ex.fetchPosition(S));
  await run("setLeverage with a position", () => ex.setLeverage(6, S));
  const sl = await run("createOrder swap stopLossPrice", () =>
    ex.createOrder(S, "market", "sell", 0.01, undefined, { stopLossPrice: Math.round(m * 0.75) }),
  );
  await run("editOrder swap TP/SL (modify-tpsl-order)", () =>
    ex.editOrder(id(sl), S, "market", "sell", 0.01, undefined, { stopLossPrice: Math.round(m * 0.72) }),
  );
  const sLim = await run("createOrder swap limit", () =>
    ex.createOrder(S, "limit", "buy", 0.01, Math.round(m * 0.7)),
  );
  const sEd = await run("editOrder swap", () =>
    ex.editOrder(id(sLim), S, "limit", "buy", 0.02, Math.round(m * 0.71)),
  );
  await run("fetchOpenOrders swap", () => ex.fetchOpenOrders(S));
  await run("cancelOrder swap", () => ex.cancelOrder(id(sEd), S));
  await run("createOrder swap IOC", () =>
    ex.createOrder(S, "limit", "buy", 0.01, Math.round(m * 0.7), { timeInForce: "IOC" }),
  );
  await run("createOrder swap FOK (expires unfilled)", () =>
    ex.createOrder(S, "limit", "buy", 0.01, Math.round(m * 0.7), { timeInForce: "FOK" }),
  );
  await run("createOrder swap post-only", () =>
    ex.createOrder(S, "limit", "buy", 0.01, Math.round(m * 0.7), { postOnly: true }),
  );
  const plan = await run("createOrder swap trigger", () =>
    ex.createOrder(S, "market", "buy", 0.01, undefined, { triggerPrice: Math.round(m * 1.4) }),
  );
  const plan2 = await run("editOrder swap trigger", () =>
    ex.editOrder(id(plan), S, "market", "buy", 0.01, undefined, { triggerPrice: Math.round(m * 1.45) }),
  );
  await run("cancelOrder swap trigger", () => ex.cancelOrder(id(plan2), S, { trigger: true }));
  const lp = await run("createOrder swap limit trigger", () =>
    ex.createOrder(S, "limit", "buy", 0.01, Math.round(m * 1.41), { triggerPrice: Math.round(m * 1.4) }),
  );
  await run("fetchOpenOrders swap trigger", () =>
    ex.fetchOpenOrders(S, undefined, undefined, { trigger: true }),
  );
  await run("cancelOrder swap limit trigger", () => ex.cancelOrder(id(lp), S, { trigger: true }));
  const tr = await run("createOrder swap trailing", () =>
    ex.createOrder(S, "market", "sell", 0.01, undefined, {
      trailingPercent: 2,
      trailingTriggerPrice: Math.round(m * 1.1),
    }),
  );
  await run("fetchOpenOrders swap trailing", () =>
    ex.fetchOpenOrders(S, undefined, undefined, { trailing: true }),
  );
  const tr2 = await run("editOrder swap trailing", () =>
    ex.editOrder(id(tr), S, "market", "sell", 0.01, undefined, { trailingPercent: 3 }),
  );
  await run("cancelOrder swap trailing", () => ex.cancelOrder(id(tr2), S, { trailing: true }));
  const sb = await run("createOrders swap", () =>
    ex.createOrders([
      { symbol: S, type: "limit", side: "buy", amount: 0.01, price: Math.round(m * 0.7) },
      { symbol: S, type: "limit", side: "buy", amount: 0.01, price: Math.round(m * 0.69) },
    ]),
  );
  await run("cancelOrders swap", () => ex.cancelOrders((sb ?? []).map(id), S));
  await run("cancelAllOrders swap", () => ex.cancelAllOrders(S));
  await run("fetchClosedOrders swap", () => ex.fetchClosedOrders(S));
  await run("fetchCanceledOrders swap", () => ex.fetchCanceledOrders(S));
  await run("fetchMyTrades swap", () => ex.fetchMyTrades(S));
  await run("closePosition", () => ex.closePosition(S));
  await run("cancelAllOrders swap trigger", () => ex.cancelAllOrders(S, { trigger: true }));
  await run("setMarginMode isolated", () => ex.setMarginMode("isolated", S));
  // ccxt sends `marginMode: "crossed"` unless told, and the order sets the symbol's mode.
  await run("createOrder swap isolated", () =>
    ex.createOrder(S, "market", "buy", 0.01, undefined, { marginMode: "isolated" }),
  );
  await run("addMargin", () => ex.addMargin(S, 5, { holdSide: "long" }));
  await run("reduceMargin", () => ex.reduceMargin(S, -2, { holdSide: "long" }));
  await run("closePosition isolated", () => ex.closePosition(S));
  await run("cancelAllOrders swap trigger (isolated legs)", () => ex.cancelAllOrders(S, { trigger: true }));
  await run("setMarginMode cross again", () => ex.setMarginMode("cross", S));
  await run("fetchPositionsHistory", () => ex.fetchPositionsHistory([S]));
  await run("fetchFundingHistory", () => ex.fetchFundingHistory(S));
  await run("fetchLedger swap", () => ex.fetchLedger("USDT", undefined, undefined, { type: "swap" }));

  // not on paper
  await run("fetchDeposits", () => ex.fetchDeposits("USDT"), "PermissionDenied");
  await run("fetchWithdrawals", () => ex.fetchWithdrawals("USDT"), "PermissionDenied");
  await run("fetchDepositAddress", () => ex.fetchDepositAddress("USDT"), "PermissionDenied");
  await run(
    "withdraw",
    () =>
      ex.withdraw("USDT", 10, "0x0000000000000000000000000000000000000000", undefined, { network: "ERC20" }),
    "PermissionDenied",
  );

  // ccxt.pro
  await run("watchTicker", () => ex.watchTicker(P));
  await run("watchOrderBook", () => ex.watchOrderBook(P));
  await run("watchTrades", () => ex.watchTrades(P));
  await run("watchOHLCV", () => ex.watchOHLCV(P, "1m"));
  const wo = ex.watchOrders(P);
  const wt = ex.watchMyTrades(P);
  const wb = ex.watchBalance();
  await new Promise((r) => setTimeout(r, 1_000));
  await ex.createOrder(P, "market", "buy", 0.001, last).catch(() => undefined);
  await run("watchOrders", () => wo);
  await run("watchMyTrades", () => wt);
  await run("watchBalance", () => wb);
  const wp = ex.watchPositions([S]);
  await run("watchPositions (snapshot)", () => wp);

  await ex.close();
  await web("DELETE", `/v1/user/api-keys/${k.apiKey}`, cookie);
  console.log(failures === 0 ? "every method answered as documented" : `${failures} failed`);
  process.exitCode = failures === 0 ? 0 : 1;
}

await main();
