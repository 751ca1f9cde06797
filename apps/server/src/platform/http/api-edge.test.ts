import { Code } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { buildTestApp, testConfig } from "../../test/support.ts";
import { errors } from "../errors.ts";
import { route } from "./route.ts";

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp({
    routes(api) {
      route(api, {
        method: "POST",
        url: "/v1/test/orders",
        body: z.object({ symbol: z.string().min(3), quantity: z.string().regex(/^\d+(\.\d+)?$/) }),
        handler: ({ body }) => ({ accepted: body.symbol, quantity: body.quantity }),
      });
      route(api, {
        method: "GET",
        url: "/v1/test/items",
        query: z.object({ page: z.coerce.number().int().min(1).default(1) }),
        handler: ({ query }) => ({ page: query.page }),
      });
      route(api, { method: "POST", url: "/v1/test/empty", handler: () => null });
      route(api, {
        method: "GET",
        url: "/v1/test/limited",
        rateLimit: { limit: 2, windowMs: 60_000 },
        handler: () => "ok",
      });
      route(api, {
        method: "GET",
        url: "/v1/test/private",
        auth: () => {
          throw errors.unauthenticated();
        },
        handler: () => "secret",
      });
      route(api, {
        method: "GET",
        url: "/v1/test/admin",
        handler: () => {
          throw errors.forbidden();
        },
      });
      route(api, {
        method: "GET",
        url: "/v1/test/boom",
        handler: () => {
          throw new Error("database password is hunter2");
        },
      });
    },
  });
});
afterAll(() => app.close());

const json = { "content-type": "application/json" };

describe("/v1 envelope", () => {
  it("wraps a handler's data as {code: 00000, msg, data}", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/v1/test/orders",
      headers: json,
      payload: { symbol: "BTCUSDT", quantity: "0.5" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      code: Code.OK,
      msg: "success",
      data: { accepted: "BTCUSDT", quantity: "0.5" },
    });
  });

  it("parses and coerces the query with its zod schema", async () => {
    expect((await app.inject({ url: "/v1/test/items?page=3" })).json().data).toEqual({ page: 3 });
    expect((await app.inject({ url: "/v1/test/items" })).json().data).toEqual({ page: 1 });
    const bad = await app.inject({ url: "/v1/test/items?page=0" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data[0].field).toBe("page");
  });

  it("reads an empty application/json body as no body", async () => {
    const res = await app.inject({ method: "POST", url: "/v1/test/empty", headers: json, payload: "" });
    expect(res.json()).toEqual({ code: Code.OK, msg: "success", data: null });
  });
});

describe("/v1 edge errors", () => {
  it("answers an unknown API route 404 / 10404", async () => {
    const res = await app.inject({ url: "/v1/no/such/route" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: Code.NOT_FOUND, data: null });
    expect(res.json().msg).toContain("/v1/no/such/route");
  });

  it("answers a known route called with the wrong method 405 / 10405 with Allow", async () => {
    const res = await app.inject({ method: "GET", url: "/v1/test/orders" });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe("POST");
    expect(res.json().code).toBe(Code.METHOD_NOT_ALLOWED);
  });

  it("answers malformed JSON 400 / 10400", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/v1/test/orders",
      headers: json,
      payload: '{"symbol":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: Code.MALFORMED_JSON,
      msg: "Malformed JSON in request body",
      data: null,
    });
  });

  it("answers a schema failure 400 / 10422 naming the field, with {field, rule, message} data", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/v1/test/orders",
      headers: json,
      payload: { symbol: "BTCUSDT", quantity: "lots" },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe(Code.VALIDATION_FAILED);
    expect(body.msg).toContain("quantity");
    expect(body.data).toEqual([{ field: "quantity", rule: "invalid_format", message: expect.any(String) }]);
  });

  it("answers an over-large body 413 / 10413", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/v1/test/orders",
      headers: json,
      payload: JSON.stringify({ symbol: "x".repeat(testConfig().bodyLimit + 10), quantity: "1" }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe(Code.BODY_TOO_LARGE);
  });

  it("answers an unsupported media type 415 / 10415", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/v1/test/orders",
      headers: { "content-type": "application/xml" },
      payload: "<order/>",
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe(Code.UNSUPPORTED_MEDIA_TYPE);
  });

  it("answers over the rate limit 429 / 10429 with Retry-After", async () => {
    const hit = () => app.inject({ url: "/v1/test/limited", remoteAddress: "10.9.9.9" });
    expect((await hit()).statusCode).toBe(200);
    expect((await hit()).statusCode).toBe(200);
    const res = await hit();
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe(Code.TOO_MANY_REQUESTS);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    // Another client has its own window.
    expect((await app.inject({ url: "/v1/test/limited", remoteAddress: "10.9.9.10" })).statusCode).toBe(200);
  });

  it("answers unauthenticated 401 / 10401 before validation", async () => {
    const res = await app.inject({ url: "/v1/test/private" });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(Code.UNAUTHENTICATED);
  });

  it("answers forbidden 403 / 10403", async () => {
    const res = await app.inject({ url: "/v1/test/admin" });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(Code.FORBIDDEN);
  });

  it("answers a thrown error 500 / 10500 without its message or stack", async () => {
    const res = await app.inject({ url: "/v1/test/boom" });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: Code.INTERNAL, msg: "Internal server error", data: null });
    expect(res.body).not.toContain("hunter2");
    expect(res.body).not.toMatch(/at .*\.ts/);
  });

  it("maps a module's own coded error class like an AppError", async () => {
    class ModuleError extends Error {
      code = "20205";
      status = 403;
    }
    const local = await buildTestApp({
      modules: [],
      routes(api) {
        api.get("/v1/test/frozen", () => {
          throw new ModuleError("Account frozen");
        });
      },
    });
    const res = await local.inject({ url: "/v1/test/frozen" });
    await local.close();
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: "20205", msg: "Account frozen", data: null });
  });
});

describe("request id", () => {
  it("honours a valid incoming x-request-id and echoes it", async () => {
    const res = await app.inject({ url: "/healthz", headers: { "x-request-id": "trace-abc-12345" } });
    expect(res.headers["x-request-id"]).toBe("trace-abc-12345");
  });

  it("replaces an invalid one with a fresh id", async () => {
    const res = await app.inject({ url: "/healthz", headers: { "x-request-id": "bad id with spaces" } });
    expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("/healthz", () => {
  it("pings the database", async () => {
    const res = await app.inject({ url: "/healthz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok", db: "ok", redis: "absent" });
  });
});

describe("Host header", () => {
  it("answers a malformed Host 400 10411 on pages and the API, and takes well-formed ones", async () => {
    for (const host of ["a b", "[::1", "x:99999", "%%", "a/b", "[zz]:1", "user@host", "h\\x"]) {
      for (const url of ["/v1/test/items", "/airdrops", "/"]) {
        const res = await app.inject({ url, headers: { host } });
        expect(res.statusCode, `${host} ${url}`).toBe(400);
        expect(res.json(), `${host} ${url}`).toMatchObject({ code: Code.MALFORMED_HOST, data: null });
      }
    }
    for (const host of [
      "localhost",
      "localhost:3000",
      "127.0.0.1:80",
      "[::1]:8080",
      "EXAMPLE.com",
      "xn--bcher-kva.de",
    ]) {
      expect((await app.inject({ url: "/v1/test/items", headers: { host } })).statusCode, host).toBe(200);
    }
  });
});
