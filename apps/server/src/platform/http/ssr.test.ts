import { describe, expect, it } from "vitest";
import { buildTestApp } from "../../test/support.ts";
import { route } from "./route.ts";
import { createInProcessApi } from "./ssr.ts";

describe("createInProcessApi (the api() loaders get)", () => {
  it("calls /v1 in-process with the visitor's cookies, locale and request id, and returns the envelope", async () => {
    const app = await buildTestApp({
      routes(api) {
        route(api, {
          method: "POST",
          url: "/v1/test/whoami",
          handler: ({ request }) => ({
            cookie: request.headers.cookie ?? null,
            locale: request.headers.locale ?? null,
            requestId: request.id,
            body: request.body ?? null,
          }),
        });
        // Stands in for a page: calls the API the way a loader's api() does.
        api.get("/v1/test/page", async (request) => {
          const call = createInProcessApi(app, request);
          return call("/v1/test/whoami", { body: { symbol: "BTCUSDT" } });
        });
      },
    });
    try {
      const res = await app.inject({
        url: "/v1/test/page",
        headers: { cookie: "token=abc", locale: "ja", "x-request-id": "page-request-0001", "x-other": "no" },
      });
      expect(res.json()).toEqual({
        code: "00000",
        msg: "success",
        data: {
          cookie: "token=abc",
          locale: "ja",
          requestId: "page-request-0001",
          body: { symbol: "BTCUSDT" },
        },
      });
    } finally {
      await app.close();
    }
  });
});
