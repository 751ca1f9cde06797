import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../test/support.ts";
import { API_REFERENCE_PATH, OPENAPI_PATH } from "./openapi.ts";

/**
 * The /v1 writes that take no body: everything else that is POST, PUT or PATCH must declare
 * its body schema on the route (`route({ body })`), so the document shows it and the edge
 * validates it. Add a route here only when its handler reads no body.
 */
const BODYLESS = new Set([
  "POST /v1/user/refresh",
  "POST /v1/user/logout",
  "POST /v1/user/public/clearCookie",
  "POST /v1/user/overview/userinfo",
  "POST /v1/user/google/setup",
  "POST /v1/user/security/devices/revokeOthers",
  "POST /v1/user/agreement/contract",
  "POST /v1/mix/public/clientCommonConfig",
  "POST /v1/paper/account/activate",
  "POST /v1/paper/reset",
  "POST /v1/user/sub/switch/back",
  "POST /v1/admin/vip/recompute",
  "POST /v1/por/admin/build",
  "POST /v1/user/api-keys/{apiKey}/delete",
]);

/** Writes whose body is validated in the handler on purpose, and why. */
const HANDLER_VALIDATED: Record<string, string> = {
  // Counted per IP before parsing; a bad report answers HTTP 200 "Invalid report" (fire and forget).
  "POST /v1/buried/log/cspSecurity": "security-report/routes.ts",
  // Raw text of any content type, parsed by the ingest (bench:ingest).
  "POST /v1/buried/log/info": "tracking/routes.ts",
  // Multipart, streamed: the file's type is read from its bytes, its size and pixels bounded.
  "POST /v1/admin/media/uploads": "media/routes.ts",
};

type Operation = {
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  parameters?: { in: string; name: string }[];
};

describe("OpenAPI document", () => {
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  let paths: Record<string, Record<string, Operation>>;
  beforeAll(async () => {
    app = await buildTestApp();
    const res = await app.inject({ method: "GET", url: OPENAPI_PATH });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: typeof paths };
    expect(doc.openapi).toBe("3.1.0");
    paths = doc.paths;
  });
  afterAll(() => app.close());

  it("documents /v1 routes with the schemas they validate, and nothing outside /v1", () => {
    const keys = Object.keys(paths);
    expect(keys.length).toBeGreaterThan(50);
    expect(keys.every((p) => p.startsWith("/v1/"))).toBe(true);
    const place = paths["/v1/paper/orders"]?.post;
    expect(Object.keys(place?.requestBody?.content["application/json"]?.schema.properties ?? {})).toEqual(
      expect.arrayContaining(["symbol", "side", "type"]),
    );
  });

  it("gives every path parameter a schema", () => {
    const missing: string[] = [];
    for (const [p, ops] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const names = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        const declared = new Set((op.parameters ?? []).filter((x) => x.in === "path").map((x) => x.name));
        if (names.some((n) => n !== undefined && !declared.has(n)))
          missing.push(`${method.toUpperCase()} ${p}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("gives every /v1 write that takes a body its body schema", () => {
    const missing: string[] = [];
    const stale: string[] = [];
    for (const [p, ops] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!["post", "put", "patch"].includes(method)) continue;
        const key = `${method.toUpperCase()} ${p}`;
        const exempt = BODYLESS.has(key) || key in HANDLER_VALIDATED;
        const schema = op.requestBody?.content["application/json"]?.schema;
        if (schema === undefined && !exempt) missing.push(key);
        if (schema !== undefined && exempt) stale.push(key);
      }
    }
    expect(missing).toEqual([]);
    expect(stale).toEqual([]);
  });

  it("documents the account routes' bodies and queries", () => {
    const login = paths["/v1/user/login"]?.post?.requestBody?.content["application/json"]?.schema;
    expect(Object.keys(login?.properties ?? {})).toEqual(expect.arrayContaining(["loginName", "pwd"]));
    const history = paths["/v1/user/security/loginHistory"]?.get?.parameters ?? [];
    expect(history.filter((x) => x.in === "query").map((x) => x.name)).toEqual(
      expect.arrayContaining(["page", "pageSize"]),
    );
  });

  it("serves the reference page", async () => {
    const res = await app.inject({ method: "GET", url: API_REFERENCE_PATH });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
  });
});
