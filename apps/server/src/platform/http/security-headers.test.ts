import type { FastifyInstance, FastifyRequest } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, testConfig } from "../../test/support.ts";
import { API_CSP, buildCsp } from "./security-headers.ts";

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp({
    config: testConfig({
      TRUST_PROXY: "true",
      IMG_DOMAINS_FOREIGN: "img-a.example.com",
      IMG_DOMAINS_INTERNAL: "img-b.example.cn",
      FRAME_ANCESTORS: "'self' https://partner.example",
    }),
  });
});
afterAll(() => app.close());

function directives(csp: string | undefined): Map<string, string> {
  return new Map(
    (csp ?? "").split(";").map((part) => {
      const [name = "", ...values] = part.trim().split(/\s+/);
      return [name, values.join(" ")];
    }),
  );
}

describe("security headers", () => {
  it("sends pages a CSP with a fresh nonce per response, on found and not-found pages alike", async () => {
    const first = await app.inject({ url: "/healthz" });
    const second = await app.inject({ url: "/no-such-file.txt" });
    const a = directives(first.headers["content-security-policy"] as string);
    const b = directives(second.headers["content-security-policy"] as string);
    expect(a.get("script-src")).toMatch(/^'self' 'nonce-[A-Za-z0-9+/=]{24}'$/);
    expect(b.get("script-src")).toMatch(/^'self' 'nonce-[A-Za-z0-9+/=]{24}'$/);
    expect(a.get("script-src")).not.toBe(b.get("script-src"));
    expect(a.get("object-src")).toBe("'none'");
    expect(a.get("base-uri")).toBe("'self'");
    expect(a.get("frame-ancestors")).toBe("'self' https://partner.example");
    expect(a.get("img-src")).toContain("https://img-a.example.com");
    expect(a.get("img-src")).toContain("https://img-b.example.cn");
    expect(a.get("img-src")).toContain("https://static.meridian.example");
    expect(a.get("connect-src")).toMatch(/^'self' ws:\/\//);
  });

  it("sends API answers, found or not, the strict API policy with no nonce", async () => {
    for (const url of ["/v1/mix/system/getDomainConfigList", "/v1/unknown", "/v1?x=1"]) {
      const res = await app.inject({ url });
      expect(res.headers["content-security-policy"], url).toBe(API_CSP);
      expect(directives(res.headers["content-security-policy"] as string).get("default-src")).toBe("'none'");
    }
    // A path that merely starts with the letters is not the API.
    const page = await app.inject({ url: "/v1x" });
    expect(page.headers["content-security-policy"]).toMatch(/'nonce-/);
  });

  it("sends nosniff and the referrer policy", async () => {
    const res = await app.inject({ url: "/healthz" });
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  });

  it("sends HSTS only when the request came over https", async () => {
    const plain = await app.inject({ url: "/healthz" });
    expect(plain.headers["strict-transport-security"]).toBeUndefined();
    const secure = await app.inject({ url: "/healthz", headers: { "x-forwarded-proto": "https" } });
    expect(secure.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    expect(directives(secure.headers["content-security-policy"] as string).get("connect-src")).toMatch(
      /wss:\/\//,
    );
  });

  it("ignores x-forwarded-proto when the proxy is not trusted", async () => {
    const untrusting = await buildTestApp();
    const res = await untrusting.inject({ url: "/healthz", headers: { "x-forwarded-proto": "https" } });
    await untrusting.close();
    expect(res.headers["strict-transport-security"]).toBeUndefined();
  });

  it("allows Telegram's widget script and frame on the login and sign-up pages only, when configured", () => {
    const csp = (url: string, telegramWidget: boolean) =>
      directives(
        buildCsp("n", { url, protocol: "https", host: "meridian.example" } as FastifyRequest, {
          imageHosts: [],
          frameAncestors: "'self'",
          publicDomains: ["meridian.example"],
          telegramWidget,
        }),
      );
    for (const url of ["/login", "/ar/login", "/zh-CN/register", "/register?redirect=%2Fspot"]) {
      expect(csp(url, true).get("script-src")).toBe("'self' 'nonce-n' https://telegram.org");
      expect(csp(url, true).get("frame-src")).toBe("https://oauth.telegram.org");
      expect(csp(url, false).get("script-src")).toBe("'self' 'nonce-n'");
      expect(csp(url, false).has("frame-src")).toBe(false);
    }
    for (const url of ["/account/security", "/third-login/telegram", "/loginx", "/spot/login"]) {
      expect(csp(url, true).get("script-src")).toBe("'self' 'nonce-n'");
      expect(csp(url, true).has("frame-src")).toBe(false);
    }
  });
});
