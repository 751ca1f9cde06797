/**
 * Fuzz over the whole `/v1` route table: whatever a request holds (method, headers,
 * encodings, bodies, sizes, nesting, unicode, numbers out of range) the answer is never a
 * 5xx, an error is a well-formed, bounded `{code, msg, data}`, the server stays up, and a
 * refused request changes no stored row.
 *
 * `npm test` runs FUZZ_RUNS (default 250) cases from FUZZ_SEED (default fixed);
 * `npm run fuzz:api` runs many more from a fresh seed (printed, to replay a failure).
 */
import { SESSION_COOKIE } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccountsService } from "./modules/accounts/index.ts";
import type { PlatformDb } from "./platform/db/internal.ts";
import { openSqlite } from "./platform/db/sqlite.ts";
import { routeTable } from "./platform/http/route-table.ts";
import { loginNewUser, TEST_HOST } from "./test/accounts.ts";
import { type FuzzSessions, runApiFuzz, type TableRoute } from "./test/api-fuzz.ts";
import { buildTestApp } from "./test/support.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 250);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_127);

let app: FastifyInstance;
let db: PlatformDb;
const routes: TableRoute[] = [];
let sessions: FuzzSessions;

beforeAll(async () => {
  db = openSqlite(":memory:");
  let service: AccountsService | undefined;
  app = await buildTestApp({
    db,
    routes(api) {
      service = api.accounts.service;
    },
  });
  if (service === undefined) throw new Error("the accounts module is missing");
  await app.ready();
  // WebSocket routes are in the table too: a plain request to them must answer 426, not 5xx.
  for (const entry of routeTable(app))
    if (entry.method !== "HEAD") routes.push({ method: entry.method, url: entry.url });
  sessions = { user: await loginNewUser(service, "user"), admin: await loginNewUser(service, "admin") };
}, 60_000);
afterAll(async () => {
  await app.close();
  await db.close();
});

describe("API fuzz", () => {
  it("lists the route table", () => {
    const v1 = routes.filter((r) => r.url.startsWith("/v1/"));
    expect(v1.length).toBeGreaterThan(100);
    expect(v1).toContainEqual({ method: "POST", url: "/v1/user/login" });
    expect(sessions.user.startsWith(`${SESSION_COOKIE}=`)).toBe(true);
  });

  it(
    "no 5xx, bounded envelopes, no row changed by a refused request, server alive",
    async () => {
      const table = routes.filter((r) => r.url.startsWith("/v1/") || r.url === "/healthz");
      const statuses = await runApiFuzz({
        app,
        db,
        routes: table,
        sessions,
        host: TEST_HOST,
        runs: RUNS,
        seed: SEED,
      });
      const health = await app.inject({ url: "/healthz" });
      expect(health.statusCode).toBe(200);
      const login = await app.inject({ method: "POST", url: "/v1/user/login", payload: {} });
      expect(login.statusCode).toBeLessThan(500);
      // The run reached handlers, not only the edge: some answers were successes.
      expect([...statuses.keys()].some((s) => s < 300)).toBe(true);
      if (process.env.FUZZ_REPORT) console.log(JSON.stringify(Object.fromEntries(statuses)));
    },
    Math.max(60_000, RUNS * 400),
  );
});
