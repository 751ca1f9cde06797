import { describe, expect, it } from "vitest";
import { route } from "./platform/http/route.ts";
import { buildTestApp } from "./test/support.ts";

describe("graceful shutdown", () => {
  it("finishes an in-flight request, refuses new connections, then closes", async () => {
    let release = () => {};
    let started = () => {};
    const inFlight = new Promise<void>((resolve) => {
      started = resolve;
    });
    const app = await buildTestApp({
      routes(api) {
        route(api, {
          method: "GET",
          url: "/v1/test/slow",
          handler: async () => {
            started();
            await new Promise<void>((resolve) => {
              release = resolve;
            });
            return "finished";
          },
        });
      },
    });
    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    const pending = fetch(`${address}/v1/test/slow`).then(async (res) => ({
      status: res.status,
      body: await res.json(),
    }));
    await inFlight;

    let closed = false;
    const closing = app.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(false);
    await expect(fetch(`${address}/healthz`)).rejects.toThrow();

    release();
    expect(await pending).toEqual({ status: 200, body: { code: "00000", msg: "success", data: "finished" } });
    await closing;
    expect(closed).toBe(true);
  });
});
