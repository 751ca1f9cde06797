import { signModeFor } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGNED_WRITE_PREFIXES, signUrls, unsignedWrites } from "../../modules/gateway-sign/index.ts";
import { buildTestApp } from "../../test/support.ts";
import { type RouteEntry, routeTable, samplePath } from "./route-table.ts";

let app: FastifyInstance;
let table: readonly RouteEntry[];

beforeAll(async () => {
  app = await buildTestApp();
  await app.ready();
  table = routeTable(app);
}, 60_000);
afterAll(() => app?.close());

const entry = (over: Partial<RouteEntry>): RouteEntry => ({
  method: "POST",
  url: "/v1/paper/x",
  declaredSign: undefined,
  sign: undefined,
  encrypted: false,
  user: true,
  admin: false,
  csrf: true,
  ...over,
});

describe("route table", () => {
  it("lists every API route once per method, with what guards it", () => {
    const find = (method: string, url: string) => table.find((r) => r.method === method && r.url === url);
    expect(find("POST", "/v1/paper/orders")).toMatchObject({
      declaredSign: 2,
      sign: 2,
      user: true,
      csrf: true,
    });
    expect(find("GET", "/v1/paper/orders/open")).toMatchObject({ declaredSign: undefined, sign: 2 });
    expect(find("POST", "/v1/user/login")).toMatchObject({ encrypted: true, user: false });
    expect(find("GET", "/v1/market/tickers")).toMatchObject({ sign: undefined, user: false, admin: false });
    expect(find("HEAD", "/v1/market/tickers")).toBeUndefined();
  });

  it("has no state-changing trading, asset or account-security route without a sign mode", () => {
    expect(
      table.filter((r) => SIGNED_WRITE_PREFIXES.some((p) => r.url.startsWith(p))).length,
    ).toBeGreaterThan(30);
    expect(unsignedWrites(table).map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it("the check catches a write that forgot its sign mode", () => {
    const forgot = entry({ method: "DELETE", url: "/v1/paper/things/:id" });
    expect(unsignedWrites([...table, forgot])).toEqual([forgot]);
    expect(unsignedWrites([entry({ method: "GET" }), entry({ url: "/v1/content/x" })])).toEqual([]);
  });

  it("admin areas are admin-only", () => {
    const admin = table.filter((r) => r.url.startsWith("/v1/admin/") || r.url.startsWith("/v1/analytics/"));
    expect(admin.length).toBeGreaterThan(20);
    expect(admin.filter((r) => !r.admin).map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it("gatewaySignConfig is the table's modes: every signed route's path is signed in its mode", async () => {
    const res = await app.inject({ url: "/v1/mix/config/gatewaySignConfig" });
    const config = res.json<{
      data: { gatewaySignConfig: { exactUrls: Record<string, number>; prefixUrls: Record<string, number> } };
    }>().data.gatewaySignConfig;
    expect({ exactUrls: config.exactUrls, prefixUrls: config.prefixUrls }).toEqual(signUrls(table));
    for (const r of table.filter((t) => t.declaredSign !== undefined))
      expect(signModeFor(config, samplePath(r.url)), `${r.method} ${r.url}`).toBe(r.declaredSign);
    // The paths the old defaults named do not exist.
    for (const gone of ["/v1/trade/", "/v1/spot/order", "/v1/asset/", "/v1/sim/"])
      expect(config.prefixUrls[gone]).toBeUndefined();
  });

  it("refuses two modes for one path", () => {
    expect(() =>
      signUrls([
        entry({ method: "DELETE", url: "/v1/paper/a/:id", declaredSign: 2 }),
        entry({ method: "POST", url: "/v1/paper/a/:id/x", declaredSign: 1 }),
      ]),
    ).toThrow(/sign mode conflict/);
  });
});
