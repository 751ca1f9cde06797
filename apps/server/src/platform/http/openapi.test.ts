import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../test/support.ts";
import { API_REFERENCE_PATH, OPENAPI_PATH } from "./openapi.ts";

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

  it("serves the reference page", async () => {
    const res = await app.inject({ method: "GET", url: `${API_REFERENCE_PATH}/` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
  });
});
