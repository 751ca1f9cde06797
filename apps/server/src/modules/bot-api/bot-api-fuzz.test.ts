/**
 * Fuzz over every `/api/...` route (the Bitget-compatible bot API): whatever a request
 * holds (method, encoding, content type, body, size, signature) the answer is Bitget's
 * JSON envelope, never HTML and never a 5xx, and a refusal carries a Bitget error code.
 * A catch-all route stands in for the pages (SSR answers every other path with HTML).
 *
 * `npm test` runs BOTAPI_FUZZ_RUNS (default 300) cases from FUZZ_SEED (default fixed).
 */
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import type { CreatedApiKey } from "@meridian/contracts";
import fc from "fast-check";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeTable } from "../../platform/http/route-table.ts";
import { callApi, loginNewUser, TEST_HOST } from "../../test/accounts.ts";
import { buildTestApp } from "../../test/support.ts";
import type { AccountsService } from "../accounts/index.ts";
import { prehash, signHmac } from "./signature.ts";

const RUNS = Number(process.env.BOTAPI_FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_205);
const PAGE = "<!doctype html><title>page</title>";

let app: FastifyInstance;
let key: CreatedApiKey & { passphrase: string };
const routes: { method: string; url: string }[] = [];
const scale = process.env.BOT_API_RATE_SCALE;

beforeAll(async () => {
  // Enough headroom that the fuzz reaches the handlers instead of the rate limits.
  process.env.BOT_API_RATE_SCALE = "10000";
  let service: AccountsService | undefined;
  app = await buildTestApp({
    routes(api) {
      service = api.accounts.service;
    },
  });
  app.route({
    method: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    url: "/*",
    handler: (_request, reply) => reply.type("text/html").send(PAGE),
  });
  await app.ready();
  for (const entry of routeTable(app))
    if (entry.url.startsWith("/api/") && entry.method !== "HEAD")
      routes.push({ method: entry.method, url: entry.url });
  if (service === undefined) throw new Error("the accounts module is missing");
  const cookie = await loginNewUser(service);
  const passphrase = "Passphrase123";
  const made = await callApi<CreatedApiKey>(
    app,
    cookie,
    "POST",
    "/v1/user/api-keys",
    { label: "fuzz", permissions: ["read", "spot_trade", "futures_trade", "transfer"], passphrase, ips: [] },
    { paptrading: "1" },
  );
  if (made.code !== "00000") throw new Error(`create key: ${made.code} ${made.msg}`);
  key = { ...made.data, passphrase };
}, 60_000);

afterAll(async () => {
  if (scale === undefined) delete process.env.BOT_API_RATE_SCALE;
  else process.env.BOT_API_RATE_SCALE = scale;
  await app?.close();
});

interface Answer {
  status: number;
  type: string;
  text: string;
}

async function send(
  method: string,
  url: string,
  headers: Record<string, string>,
  payload?: Buffer | string,
): Promise<Answer> {
  const res = await app.inject({
    method: method as "GET",
    url,
    headers: { host: TEST_HOST, ...headers },
    ...(payload === undefined ? {} : { payload }),
  });
  return { status: res.statusCode, type: String(res.headers["content-type"] ?? ""), text: res.body };
}

/** Headers of a correctly signed call over `body` (the text the server will read). */
function signed(method: string, url: string, body: string): Record<string, string> {
  const ts = String(Date.now());
  const [path = "", query = ""] = url.split("?");
  return {
    paptrading: "1",
    "access-key": key.apiKey,
    "access-passphrase": key.passphrase,
    "access-timestamp": ts,
    "access-sign": signHmac(key.secret ?? "", prehash(ts, method, path, query, body)),
  };
}

/** The answer is Bitget's envelope; a refusal has a 4xx status and a Bitget error code. */
function expectEnvelope(a: Answer, label: string): void {
  expect(a.status, label).toBeLessThan(500);
  if (a.status === 101 || a.status === 426) return;
  expect(a.type, label).toMatch(/^application\/json/);
  const body = JSON.parse(a.text) as { code?: unknown; msg?: unknown; requestTime?: unknown };
  expect(typeof body.code, label).toBe("string");
  expect(typeof body.msg, label).toBe("string");
  expect(typeof body.requestTime, label).toBe("number");
  expect(String(body.msg).length, label).toBeLessThan(500);
  if (a.status >= 400) expect(body.code, label).not.toBe("00000");
  else expect(body.code, label).toBe("00000");
}

const postRoutes = () => routes.filter((r) => r.method === "POST" && !r.url.includes("*"));

describe("the bot API's edge", () => {
  it("lists the /api routes", () => {
    expect(postRoutes().length).toBeGreaterThan(30);
    expect(routes).toContainEqual({ method: "POST", url: "/api/v2/spot/trade/place-order" });
  });

  it("answers unreadable bodies on every POST route with a 4xx envelope and its code", async () => {
    const json = Buffer.from('{"symbol":"BTCUSDT","side":"buy"}');
    const cases: {
      name: string;
      headers: Record<string, string>;
      payload: Buffer;
      status: number;
      code: string;
    }[] = [
      {
        name: "bad gzip",
        headers: { "content-type": "application/json", "content-encoding": "gzip" },
        payload: Buffer.from("not gzip at all"),
        status: 400,
        code: "40017",
      },
      {
        name: "truncated gzip",
        headers: { "content-type": "application/json", "content-encoding": "gzip" },
        payload: gzipSync(json).subarray(0, 12),
        status: 400,
        code: "40017",
      },
      {
        name: "bad br",
        headers: { "content-type": "application/json", "content-encoding": "br" },
        payload: Buffer.from("\u00ff\u00fe junk"),
        status: 400,
        code: "40017",
      },
      {
        name: "unknown encoding",
        headers: { "content-type": "application/json", "content-encoding": "compress, x-unknown" },
        payload: json,
        status: 415,
        code: "415",
      },
      {
        name: "form body",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: Buffer.from("symbol=BTCUSDT&side=buy"),
        status: 415,
        code: "415",
      },
      {
        name: "multipart body",
        headers: { "content-type": "multipart/form-data; boundary=x" },
        payload: Buffer.from('--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'),
        status: 415,
        code: "415",
      },
      {
        name: "too large",
        headers: { "content-type": "application/json" },
        payload: Buffer.from(`{"symbol":"${"A".repeat(3 * 1024 * 1024)}"}`),
        status: 413,
        code: "40017",
      },
      {
        name: "not JSON",
        headers: { "content-type": "application/json" },
        payload: Buffer.from('{"symbol":'),
        status: 400,
        code: "40017",
      },
    ];
    for (const route of postRoutes()) {
      for (const c of cases) {
        const label = `${c.name} on ${route.url}`;
        const a = await send(
          "POST",
          route.url,
          { ...signed("POST", route.url, ""), ...c.headers },
          c.payload,
        );
        expectEnvelope(a, label);
        expect([a.status, (JSON.parse(a.text) as { code: string }).code], label).toEqual([c.status, c.code]);
      }
    }
  }, 120_000);

  it("answers an unknown path or method with 40404, never the pages' HTML", async () => {
    for (const [method, url] of [
      ["GET", "/api/v2/spot/trade/no-such-endpoint"],
      ["POST", "/api/v2/mix/order/no-such-endpoint"],
      ["GET", "/api/v2/spot/trade/place-order"],
      ["DELETE", "/api/v2/spot/market/tickers"],
      ["PUT", "/api/v3/account/settings"],
      ["GET", "/api/v3/account/settings"],
      ["GET", "/api/"],
      ["POST", "/api/anything/else"],
    ] as const) {
      const a = await send(method, url, { paptrading: "1" });
      expectEnvelope(a, `${method} ${url}`);
      expect([a.status, JSON.parse(a.text)], `${method} ${url}`).toEqual([
        404,
        expect.objectContaining({ code: "40404", msg: "Request URL NOT FOUND" }),
      ]);
    }
    // A malformed path is refused by the platform's path edge before any route: JSON, 400.
    const bad = await send("GET", "/api/v2/spot/%zz", { paptrading: "1" });
    expect([bad.status, bad.type]).toEqual([400, expect.stringMatching(/^application\/json/)]);
    // The stand-in for the pages still answers outside /api.
    expect((await send("GET", "/some/page", {})).text).toBe(PAGE);
  });

  it("answers the wallet's real-money endpoints as not on paper trading", async () => {
    for (const [method, url] of [
      ["GET", "/api/v2/spot/wallet/deposit-address?coin=USDT"],
      ["GET", "/api/v2/spot/wallet/deposit-records?coin=USDT"],
      ["GET", "/api/v2/spot/wallet/withdrawal-records"],
      ["POST", "/api/v2/spot/wallet/withdrawal"],
    ] as const) {
      const body = method === "POST" ? '{"coin":"USDT","size":"10"}' : "";
      const a = await send(
        method,
        url,
        { ...signed(method, url, body), ...(body === "" ? {} : { "content-type": "application/json" }) },
        body === "" ? undefined : body,
      );
      expect([a.status, JSON.parse(a.text)]).toEqual([
        400,
        expect.objectContaining({
          code: "40014",
          msg: expect.stringMatching(/not available on paper trading/),
        }),
      ]);
    }
  });

  it(
    "fuzz: no 5xx, no HTML, a Bitget envelope for every answer",
    async () => {
      const keys = [
        "symbol",
        "side",
        "orderType",
        "force",
        "size",
        "price",
        "clientOid",
        "orderId",
        "productType",
        "marginCoin",
        "marginMode",
        "triggerPrice",
        "planType",
        "holdSide",
        "leverage",
        "amount",
        "coin",
        "fromType",
        "toType",
        "orderIdList",
        "orderList",
        "__proto__",
      ];
      const scalar = fc.oneof(
        fc.constantFrom("BTCUSDT", "buy", "SELL", "limit", "market", "IOC", "USDT-FUTURES", "USDT", "0.001"),
        fc.constantFrom("1e309", "-1", "NaN", "99999999999999999999999", "0.0000000000000000000001", ""),
        fc.string({ maxLength: 20 }),
        fc.double(),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
      );
      const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.string(), scalar));
      const bodyText = fc.oneof(
        {
          weight: 6,
          arbitrary: fc.dictionary(fc.constantFrom(...keys), value).map((o) => JSON.stringify(o)),
        },
        { weight: 1, arbitrary: fc.json() },
        { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
        { weight: 1, arbitrary: fc.constantFrom("", "{", "[", '{"a":', "null", "[]", '"x"') },
      );
      const request = fc.record({
        route: fc.constantFrom(...routes),
        method: fc.oneof(
          { weight: 5, arbitrary: fc.constant("") },
          { weight: 1, arbitrary: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS") },
        ),
        // No dot segments (`/api/..` is the home page) and no malformed escapes: the
        // platform's path edge refuses those before routing (see the test above).
        segment: fc.constantFrom("x", "v2/spot/x", "%41", "a".repeat(300)),
        query: fc.oneof(
          fc.constant(""),
          fc
            .dictionary(fc.constantFrom("symbol", "productType", "limit", "orderId", "coin"), fc.string(), {
              maxKeys: 3,
            })
            .map((q) => `?${new URLSearchParams(q).toString()}`),
        ),
        body: bodyText,
        encoding: fc.constantFrom("none", "none", "none", "gzip", "deflate", "br", "label-only", "odd"),
        contentType: fc.constantFrom(
          "application/json",
          "application/json",
          "application/json; charset=utf-16",
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "application/octet-stream",
        ),
        auth: fc.constantFrom("signed", "signed", "none", "garbage", "stale"),
      });
      const statuses = new Set<number>();
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          const method = r.method === "" ? r.route.method : r.method;
          const url = `${r.route.url.replace("*", r.segment)}${r.query}`;
          const withBody = method !== "GET" && method !== "HEAD";
          const raw = Buffer.from(r.body);
          const payload =
            r.encoding === "gzip"
              ? gzipSync(raw)
              : r.encoding === "deflate"
                ? deflateSync(raw)
                : r.encoding === "br"
                  ? brotliCompressSync(raw)
                  : raw;
          const headers: Record<string, string> = {};
          if (r.auth === "signed") Object.assign(headers, signed(method, url, withBody ? r.body : ""));
          if (r.auth === "garbage")
            Object.assign(headers, {
              paptrading: "1",
              "access-key": "bg_%zz",
              "access-sign": "====",
              "access-timestamp": "1e309",
              "access-passphrase": "\u00e9",
            });
          if (r.auth === "stale")
            Object.assign(headers, signed(method, url, r.body), { "access-timestamp": "1" });
          if (withBody) {
            headers["content-type"] = r.contentType;
            if (r.encoding === "label-only") headers["content-encoding"] = "gzip";
            else if (r.encoding === "odd") headers["content-encoding"] = "compress, x-unknown";
            else if (r.encoding !== "none") headers["content-encoding"] = r.encoding;
          }
          const a = await send(method, url, headers, withBody ? payload : undefined);
          statuses.add(a.status);
          expectEnvelope(
            a,
            `${method} ${url} [${r.encoding}, ${r.contentType}, ${r.auth}] ${r.body.slice(0, 80)}`,
          );
        }),
        { numRuns: RUNS, seed: SEED },
      );
      // The run reached the handlers, not only the edge: some calls succeeded.
      expect([...statuses].some((s) => s < 300)).toBe(true);
    },
    Math.max(60_000, RUNS * 400),
  );
});
