/**
 * Host and proxies (issue 15 item 8): the client address behind trusted proxies, Secure
 * cookies and HSTS only behind https a trusted proxy vouches for, and no Host header
 * outside PUBLIC_DOMAINS in what the server writes.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IssuedSession, setSessionCookies } from "./modules/accounts/index.ts";
import { ConfigError, loadConfig } from "./platform/config.ts";
import { publicOrigin } from "./platform/http/public-origin.ts";
import { route } from "./platform/http/route.ts";
import { buildTestApp, testConfig } from "./test/support.ts";

const PROXY = "10.0.0.7";
const OUTSIDER = "198.51.100.20";

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp({
    config: testConfig({
      TRUST_PROXY: "10.0.0.0/8, 192.0.2.1",
      PUBLIC_DOMAINS: "meridian.example, ja.meridian.example",
    }),
    routes(api) {
      route(api, {
        method: "GET",
        url: "/v1/test/limited",
        rateLimit: { limit: 3, windowMs: 60_000 },
        handler: ({ request }) => ({ ip: request.ip }),
      });
      route(api, {
        method: "POST",
        url: "/v1/test/session",
        handler: ({ request, reply }) => {
          setSessionCookies(request, reply, { token: "t", refreshToken: "r" } as IssuedSession);
          return null;
        },
      });
    },
  });
}, 60_000);
afterAll(() => app.close());

describe("client address behind trusted proxies", () => {
  it("is the nearest hop that is not a trusted proxy, so a rotating X-Forwarded-For cannot escape a per-IP limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await app.inject({
        url: "/v1/test/limited",
        remoteAddress: PROXY,
        // The client writes the left part; the proxies append the real address and themselves.
        headers: { "x-forwarded-for": `1.2.3.${i}, 10.9.9.${i}, 203.0.113.50, 192.0.2.1` },
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 200) expect(res.json().data.ip).toBe("203.0.113.50");
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
  });

  it("TRUST_PROXY=true trusts the private ranges only: the client-written entries still do not count", async () => {
    const open = await buildTestApp({
      config: testConfig({ TRUST_PROXY: "true" }),
      routes(api) {
        route(api, {
          method: "GET",
          url: "/v1/test/limited",
          rateLimit: { limit: 2, windowMs: 60_000 },
          handler: ({ request }) => ({ ip: request.ip }),
        });
      },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await open.inject({
          url: "/v1/test/limited",
          remoteAddress: PROXY,
          headers: { "x-forwarded-for": `1.2.3.${i}, 203.0.113.60` },
        });
        statuses.push(res.statusCode);
        if (res.statusCode === 200) expect(res.json().data.ip).toBe("203.0.113.60");
      }
      expect(statuses).toEqual([200, 200, 429, 429]);
    } finally {
      await open.close();
    }
  });

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy", async () => {
    const res = await app.inject({
      url: "/v1/test/limited",
      remoteAddress: OUTSIDER,
      headers: { "x-forwarded-for": "1.2.3.4" },
    });
    expect(res.json().data.ip).toBe(OUTSIDER);
  });
});

describe("https behind a trusted proxy", () => {
  it("Secure cookies and HSTS when a trusted proxy says https", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/v1/test/session",
      remoteAddress: PROXY,
      headers: { "x-forwarded-proto": "https" },
    });
    expect(res.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    const cookies = [res.headers["set-cookie"]].flat().join("\n");
    expect(cookies).toMatch(/mer_token=t;[^\n]*; Secure/);
    expect(cookies).toMatch(/HttpOnly; SameSite=Lax/);
  });

  it("neither when the claim comes from anyone else", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/v1/test/session",
      remoteAddress: OUTSIDER,
      headers: { "x-forwarded-proto": "https" },
    });
    expect(res.headers["strict-transport-security"]).toBeUndefined();
    expect([res.headers["set-cookie"]].flat().join("\n")).not.toContain("Secure");
  });
});

describe("Host outside PUBLIC_DOMAINS", () => {
  it("never reaches the page policy: the socket source names a configured domain", async () => {
    for (const host of ["evil.example", "meridian.example.evil.example"]) {
      const res = await app.inject({ url: "/healthz", headers: { host }, remoteAddress: OUTSIDER });
      const csp = String(res.headers["content-security-policy"]);
      expect(csp, host).not.toContain("evil");
      expect(csp).toMatch(/connect-src 'self' ws:\/\/meridian\.example(;|$)/);
    }
    const regional = await app.inject({ url: "/healthz", headers: { host: "ja.meridian.example" } });
    expect(String(regional.headers["content-security-policy"])).toContain("ws://ja.meridian.example");
  });

  it("nor through X-Forwarded-Host from a trusted proxy", async () => {
    const res = await app.inject({
      url: "/healthz",
      remoteAddress: PROXY,
      headers: { host: "meridian.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
    });
    expect(String(res.headers["content-security-policy"])).toMatch(
      /connect-src 'self' wss:\/\/meridian\.example(;|$)/,
    );
    expect(String(res.headers["content-security-policy"])).not.toContain("evil");
  });

  it("production without PUBLIC_DOMAINS names the local address, never the request's Host", () => {
    const config = loadConfig({ NODE_ENV: "production", PORT: "4100" });
    expect(config.publicDomains).toEqual(["localhost:4100", "127.0.0.1:4100"]);
    expect(publicOrigin("http", "evil.example", config.publicDomains)).toBe("http://localhost:4100");
    expect(publicOrigin("http", "127.0.0.1:4100", config.publicDomains)).toBe("http://127.0.0.1:4100");
    // Outside production a local run keeps its own host.
    expect(loadConfig({ NODE_ENV: "development" }).publicDomains).toEqual([]);
  });
});

describe("TRUST_PROXY parsing", () => {
  it("true means the private ranges, never every hop", () => {
    expect(loadConfig({ TRUST_PROXY: "true" }).trustProxy).toEqual(["loopback", "linklocal", "uniquelocal"]);
  });

  it("a list keeps addresses and CIDR ranges, loopback added", () => {
    expect(loadConfig({ TRUST_PROXY: "10.0.0.0/8, 2001:db8::/32, 192.0.2.1" }).trustProxy).toEqual([
      "loopback",
      "10.0.0.0/8",
      "2001:db8::/32",
      "192.0.2.1",
    ]);
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(loadConfig({}).trustProxy).toBe(false);
  });

  it("refuses what is neither an address nor a range", () => {
    for (const bad of ["proxy.internal", "10.0.0.0/33", "10.0.0.1/8/1", "*"]) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(ConfigError);
    }
  });
});
