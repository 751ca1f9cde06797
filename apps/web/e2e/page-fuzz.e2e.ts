/**
 * Fuzz over every page of the web app's route table, against the production server
 * (GET and HEAD over raw HTTP, so the path reaches the server exactly as generated):
 * hostile paths (percent-encodings, doubled and encoded slashes, backslashes, dot
 * segments, odd locale prefixes), query strings, headers and sessions (none, a user, an
 * administrator, garbage) never get a 5xx, an answer is bounded, a redirect stays on this
 * origin, and the server keeps answering.
 *
 * FUZZ_RUNS (default 250) cases from FUZZ_SEED (default fixed).
 */
import http from "node:http";
import path from "node:path";
import fc from "fast-check";
import { expect, test } from "vitest";
import {
  type FuzzSessions,
  fuzzPageRequest,
  type PageRoute,
  pageRoutes,
} from "../../server/src/test/api-fuzz.ts";
import { createAdmin, loginThroughPage, registerThroughPages } from "./account-flows.ts";
import { newPage, repoRoot, serverAndBrowser } from "./harness.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 250);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_127);
/** The largest page answer accepted: every page is far below it. */
const MAX_PAGE_BYTES = 4 * 1024 * 1024;
const ADMIN = { email: "fuzz-admin@example.com", password: "fuzz-admin-password-1" };

const run = serverAndBrowser(
  { readyTimeoutMs: 120_000 },
  { timeout: 180_000, setup: (server) => createAdmin(server.dataDir, ADMIN.email, ADMIN.password) },
);

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  bytes: number;
}

/** One request sent exactly as given (no URL normalising); the body is counted, not kept. */
function rawRequest(base: string, method: string, target: string, headers: Record<string, string>) {
  const { hostname, port } = new URL(base);
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = http.request({ host: hostname, port, method, path: target, headers, agent: false }, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > MAX_PAGE_BYTES) res.destroy();
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }));
      res.on("close", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }));
      res.on("error", reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout: ${method} ${target}`)));
    req.on("error", reject);
    req.end();
  });
}

async function sessionCookie(login: (page: Awaited<ReturnType<typeof newPage>>) => Promise<void>) {
  const page = await newPage(run.browser);
  await login(page);
  const cookies = await page.context().cookies();
  return cookies.map((c) => `${c.name}=${c.value}`).join("; ");
}

test("page fuzz: no 5xx, bounded answers, same-origin redirects, server alive", async () => {
  const base = run.server.url;
  const routes: PageRoute[] = await pageRoutes(path.join(repoRoot, "apps/web/build/server/index.js"));
  expect(routes.length).toBeGreaterThan(40);
  expect(routes.map((r) => r.path)).toContain("/:lang?/airdrops/:slug");
  const sessions: FuzzSessions = {
    user: await sessionCookie((page) => registerThroughPages(page, base, "fuzz-user@example.com")),
    admin: await sessionCookie((page) => loginThroughPage(page, base, ADMIN)),
  };
  expect(sessions.user).toMatch(/=/);
  const host = new URL(base).host;
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(fuzzPageRequest(routes, sessions, host), async (req) => {
      const res = await rawRequest(base, req.method, req.url, req.headers);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      expect(res.status, req.label).toBeGreaterThanOrEqual(200);
      expect(res.status, req.label).toBeLessThan(500);
      expect(res.bytes, req.label).toBeLessThanOrEqual(MAX_PAGE_BYTES);
      if (req.method === "HEAD") expect(res.bytes, req.label).toBe(0);
      if (res.status >= 300 && res.status < 400) {
        const location = String(res.headers.location ?? "");
        expect(location, req.label).toMatch(/^\/(?![/\\])/);
        expect(location, req.label).not.toMatch(/^\/(%2f|%5c)/i);
      }
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
  const health = await fetch(`${base}/healthz`);
  expect(health.status).toBe(200);
  expect((await fetch(`${base}/`)).status).toBe(200);
  expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
  if (process.env.FUZZ_REPORT) console.log(JSON.stringify(Object.fromEntries(statuses)));
}, 600_000);
