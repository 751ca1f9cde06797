import { existsSync } from "node:fs";
import path from "node:path";
import { REFRESH_COOKIE, SESSION_COOKIE } from "@meridian/contracts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type RunningServer, startServer } from "../../../../../scripts/lib/server-process.ts";
import { buildTestApp } from "../../test/support.ts";
import { acceptsGzip, microcacheMsFromEnv } from "./microcache.ts";
import { WEB_DIR } from "./ssr.ts";

const browser = {
  accept: "text/html",
  "accept-encoding": "identity",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36",
};

const LANGUAGES = [
  { url: "/", lang: "en", text: "Trade crypto with a clear head" },
  { url: "/ar", lang: "ar", text: "تداول العملات المشفرة بذهن صافٍ" },
  { url: "/ja", lang: "ja", text: "冷静な判断で、暗号資産を取引" },
] as const;

/** Every page is in its own language only: no translation bleeds in from a concurrent render. */
function expectLanguage(body: string, want: (typeof LANGUAGES)[number]): void {
  expect(htmlLang(body)).toBe(want.lang);
  for (const other of LANGUAGES) {
    if (other === want) expect(body).toContain(other.text);
    else expect(body).not.toContain(other.text);
  }
}

const nonceOf = (csp: unknown) => /'nonce-([^']+)'/.exec(String(csp))?.[1];
const htmlLang = (html: string) => /<html[^>]*\slang="([^"]+)"/.exec(html)?.[1];

describe("microcacheMsFromEnv", () => {
  it("defaults to one second, 0 turns it off, junk is refused", () => {
    expect(microcacheMsFromEnv({})).toBe(1000);
    expect(microcacheMsFromEnv({ SSR_MICROCACHE_MS: "0" })).toBe(0);
    expect(microcacheMsFromEnv({ SSR_MICROCACHE_MS: "2000" })).toBe(2000);
    expect(() => microcacheMsFromEnv({ SSR_MICROCACHE_MS: "soon" })).toThrow(/SSR_MICROCACHE_MS/);
  });
});

describe("acceptsGzip", () => {
  it("reads Accept-Encoding with its q-values", () => {
    expect(acceptsGzip("gzip, deflate, br, zstd")).toBe(true);
    expect(acceptsGzip("br;q=1.0, GZIP;q=0.5")).toBe(true);
    expect(acceptsGzip("br, gzip;q=0")).toBe(false);
    expect(acceptsGzip("br")).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });
});

// Pages need the web build (npm run build; the browser suite builds it too) and the real
// production process: under Vitest the build and the server would hold two different
// context tokens, so loaders would see no nonce and no session.
const built = existsSync(path.join(WEB_DIR, "build/server/index.js"));

interface Page {
  status: number;
  headers: Headers;
  body: string;
}

describe.skipIf(!built)("pages through the micro-cache", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ env: { SSR_MICROCACHE_MS: "60000" } });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  const get = async (url: string, headers: Record<string, string> = {}): Promise<Page> => {
    const res = await fetch(`${server.url}${url}`, {
      headers: { ...browser, ...headers },
      redirect: "manual",
    });
    return { status: res.status, headers: res.headers, body: await res.text() };
  };

  it("serves a repeat from cache with a fresh nonce in the CSP header and every script", async () => {
    const first = await get("/");
    const second = await get("/");
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get("x-ssr-cache")).toBe("hit");
    const nonces = [first, second].map((r) => nonceOf(r.headers.get("content-security-policy")));
    expect(nonces[0]).toBeTruthy();
    expect(nonces[1]).toBeTruthy();
    expect(nonces[0]).not.toBe(nonces[1]);
    for (const [i, res] of [first, second].entries()) {
      const own = nonces[i] ?? "";
      const other = nonces[1 - i] ?? "";
      expect(res.body).toContain(`nonce="${own}"`);
      expect(res.body).not.toContain(other);
      expect(res.body).not.toContain("__meridian_csp_nonce__");
      for (const m of res.body.matchAll(/nonce="([^"]*)"/g)) expect(m[1]).toBe(own);
    }
    // The same page either way, apart from the nonce.
    expect(second.body.replaceAll(nonces[1] ?? "", "N")).toBe(first.body.replaceAll(nonces[0] ?? "", "N"));
  });

  it("renders a page once for concurrent first requests", async () => {
    const pages = await Promise.all(Array.from({ length: 6 }, () => get("/airdrops")));
    expect(pages.map((p) => p.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(pages.filter((p) => p.headers.get("x-ssr-cache") === "miss")).toHaveLength(1);
    const nonces = new Set(pages.map((p) => nonceOf(p.headers.get("content-security-policy"))));
    expect(nonces.size).toBe(6);
  });

  it("compresses a cached page per response", async () => {
    await get("/fee");
    const plain = await get("/fee");
    for (const encoding of ["gzip", "br", "gzip, deflate, br, zstd"]) {
      const res = await get("/fee", { "accept-encoding": encoding });
      expect(res.headers.get("x-ssr-cache")).toBe("hit");
      expect(res.headers.get("content-encoding")).toBe(encoding === "br" ? "br" : "gzip");
      expect(res.headers.get("vary")).toMatch(/cookie, accept-language, accept-encoding/i);
      const nonce = nonceOf(res.headers.get("content-security-policy")) ?? "";
      const plainNonce = nonceOf(plain.headers.get("content-security-policy")) ?? "";
      expect(res.body.replaceAll(nonce, "N")).toBe(plain.body.replaceAll(plainNonce, "N"));
    }
  });

  it("never serves a visitor with a session or refresh cookie from the cache", async () => {
    await get("/");
    for (const cookie of [`${SESSION_COOKIE}=abc`, `theme=black; ${REFRESH_COOKIE}=def`]) {
      const res = await get("/", { cookie });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ssr-cache")).toBeNull();
    }
  });

  it("renders each theme cookie on its own", async () => {
    const classOf = (html: string) => /<html[^>]*\sclass="([^"]*)"/.exec(html)?.[1];
    const white = await get("/", { cookie: "theme=white" });
    const black = await get("/", { cookie: "theme=black" });
    const whiteAgain = await get("/", { cookie: "theme=white" });
    const blackAgain = await get("/", { cookie: "theme=black" });
    expect(classOf(white.body)).not.toBe(classOf(black.body));
    expect(classOf(whiteAgain.body)).toBe(classOf(white.body));
    expect(classOf(blackAgain.body)).toBe(classOf(black.body));
    expect(blackAgain.headers.get("x-ssr-cache")).toBe("hit");
  });

  it("keeps each language to its own page under concurrent requests", async () => {
    const picks = Array.from({ length: 30 }, (_, i) => LANGUAGES[i % LANGUAGES.length] ?? LANGUAGES[0]);
    // Twice: renders first, then hits; no page may carry another's language.
    for (let round = 0; round < 2; round++) {
      const pages = await Promise.all(picks.map((want) => get(want.url)));
      for (const [n, page] of pages.entries()) {
        expect(page.status).toBe(200);
        expectLanguage(page.body, picks[n] ?? LANGUAGES[0]);
      }
    }
  });

  it("caches no /v1 answer and no redirect", async () => {
    const api = await get("/v1/public/time");
    expect(api.headers.get("x-ssr-cache")).toBeNull();
    for (let i = 0; i < 2; i++) {
      const redirect = await get("/", { cookie: "locale=ja" });
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get("x-ssr-cache")).toBeNull();
    }
  });
});

// The shared i18n state (memoised resources, i18next instances) under concurrent renders,
// with the cache off so every request renders. In-process: loaders see no server context
// here, which the language does not depend on.
describe.skipIf(!built)("concurrent renders without the cache", () => {
  it("gives each page its own language", async () => {
    vi.stubEnv("SSR_MICROCACHE_MS", "0");
    const app = await buildTestApp({ ssr: true });
    vi.unstubAllEnvs();
    try {
      const picks = Array.from({ length: 24 }, (_, i) => LANGUAGES[i % LANGUAGES.length] ?? LANGUAGES[0]);
      const pages = await Promise.all(picks.map((want) => app.inject({ url: want.url, headers: browser })));
      for (const [n, page] of pages.entries()) {
        expect(page.statusCode).toBe(200);
        expect(page.headers["x-ssr-cache"]).toBeUndefined();
        expectLanguage(page.body, picks[n] ?? LANGUAGES[0]);
      }
    } finally {
      await app.close();
    }
  }, 60_000);
});
