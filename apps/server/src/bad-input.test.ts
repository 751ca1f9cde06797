/**
 * The malformed requests issue 15 found answering 5xx or an outsized error, each as it
 * was sent; the fuzz test (api-fuzz.test.ts) looks for more of the same kind.
 */
import { gzipSync } from "node:zlib";
import { Code, SESSION_COOKIE } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ERROR_DATA_BYTES } from "./platform/http/api-edge.ts";
import { buildTestApp } from "./test/support.ts";

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
}, 60_000);
afterAll(() => app.close());

const json = { "content-type": "application/json", host: "meridian.test", origin: "http://meridian.test" };

describe("bad input answers 4xx in the envelope", () => {
  it("a body labelled gzip that is not gzip: 400", async () => {
    for (const url of ["/v1/user/login", "/v1/buried/log/info", "/v1/paper/order/place"]) {
      const res = await app.inject({
        method: "POST",
        url,
        headers: { ...json, "content-encoding": "gzip" },
        payload: '{"loginName":"a"}',
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ code: Code.MALFORMED_JSON, data: null });
    }
  });

  it("an unknown Content-Encoding: 415; real gzip still works", async () => {
    const odd = await app.inject({
      method: "POST",
      url: "/v1/user/login",
      headers: { ...json, "content-encoding": "x-unknown" },
      payload: "{}",
    });
    expect(odd.statusCode).toBe(415);
    expect(odd.json().code).toBe(Code.UNSUPPORTED_MEDIA_TYPE);
    const gz = await app.inject({
      method: "POST",
      url: "/v1/buried/log/info",
      headers: { ...json, "content-encoding": "gzip" },
      payload: gzipSync("[1]"),
    });
    expect(gz.statusCode).toBe(200);
    expect(gz.json().data).toMatchObject({ received: 1, accepted: 0 });
  });

  it("10 MB to a signed path with a session cookie: 413, not 500", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/v1/user/google/bind",
      headers: { ...json, cookie: `${SESSION_COOKIE}=abc` },
      payload: "x".repeat(10_000_000),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: Code.BODY_TOO_LARGE, data: null });
  });

  it("a 151-byte tracking upload of empty events gets a small answer (was 259 KB)", async () => {
    const payload = `[${Array(50).fill("{}").join(",")}]`;
    const res = await app.inject({ method: "POST", url: "/v1/buried/log/info", headers: json, payload });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(4096);
    const data = res.json().data;
    expect(data.rejected).toHaveLength(50);
    expect(data.rejected[0].issues.length).toBeGreaterThan(0);
  });

  it("error answers are bounded whatever the request holds", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/v1/buried/log/info",
      headers: json,
      payload: `[${"1,".repeat(200_000)}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.rawPayload.length).toBeLessThan(MAX_ERROR_DATA_BYTES);
  });
});
