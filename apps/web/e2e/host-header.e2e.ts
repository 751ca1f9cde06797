/**
 * Host-header poisoning on the production server: a request naming a host outside the
 * site's domains never gets that host back in a page (canonical, hreflang, Open Graph),
 * a sitemap or a header. With PUBLIC_DOMAINS unset, production names its local address.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningServer, startServer } from "./harness.ts";

function get(server: RunningServer, path: string, host: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: server.port,
        path,
        headers: { host, "accept-encoding": "identity" },
        agent: false,
      },
      (res) => {
        let text = JSON.stringify(res.headers);
        res.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

const PAGES = ["/", "/airdrops", "/telegram-apps", "/sitemap.xml", "/robots.txt", "/feed/airdrops.xml"];

describe.each([
  {
    name: "PUBLIC_DOMAINS set",
    env: { PUBLIC_DOMAINS: "meridian.example,ja.meridian.example" },
    own: "meridian.example",
  },
  { name: "PUBLIC_DOMAINS unset", env: {}, own: "localhost:" },
])("$name", ({ env, own }) => {
  let server: RunningServer;
  beforeAll(async () => {
    // A first start migrates and seeds: on a loaded CI box that can pass the default 30 s.
    server = await startServer({ env, readyTimeoutMs: 120_000 });
  }, 150_000);
  afterAll(() => server.stop());

  test("a foreign Host never comes back in pages, sitemaps or headers", async () => {
    for (const path of PAGES) {
      const answer = await get(server, path, `evil.example:${server.port}`);
      expect(answer.status, path).toBeLessThan(500);
      expect(answer.text, path).not.toContain("evil.example");
    }
    const home = await get(server, "/", `evil.example:${server.port}`);
    expect(home.text).toContain(`rel="canonical" href="http://${own}`);
  });
});
