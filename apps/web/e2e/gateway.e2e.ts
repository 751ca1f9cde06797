/**
 * Gateway hardening against the production server (issue 15, items 1-3):
 * - a request path that is not canonical gets its canonical path's treatment or a 400: a
 *   plaintext password sent to the login path with one letter percent-encoded is refused;
 * - every redirect the server produces, for a generated corpus of hostile paths, is a
 *   same-origin path, and so is where the login page's `?redirect=` leads;
 * - a logged-in browser whose device key is gone (site data cleared, cookies kept) is
 *   asked for its password, gets a new key bound to the session, and places a signed
 *   paper order again; also when its sign config is still reloading (no stuck "Request
 *   signature missing").
 */
import http from "node:http";
import { hostilePaths, hostileRedirectParams, isWireSafe } from "@meridian/contracts/hostile-paths";
import { isSameOriginPath } from "@meridian/contracts/same-origin-path";
import { describe, expect, test } from "vitest";
import { E2E_PASSWORD, registerThroughPages, submitLogin } from "./account-flows.ts";
import { newPage, type Page, serverAndBrowser } from "./harness.ts";

// A shared machine under load can take most of a minute to start the server.
const run = serverAndBrowser({ env: { DEV_OUTBOX: "true" }, readyTimeoutMs: 90_000 }, { timeout: 120_000 });

const allowErrors = ["get user info error", "hydrated but some attributes", "Failed to load resource"];

interface RawAnswer {
  status: number;
  location: string | undefined;
  body: string;
}

/** One request with the target exactly as given (fetch would resolve dot segments itself). */
function raw(
  method: string,
  target: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  const url = new URL(run.server.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: target,
        headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          text += c.length < 4_096 ? c : "";
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, location: res.headers.location, body: text.slice(0, 400) }),
        );
      },
    );
    req.on("error", (err) => {
      // Node's HTTP parser drops a request line whose target is not a path (`javascript:x`)
      // before any route runs: no answer, so nothing to redirect.
      if (!target.startsWith("/")) resolve({ status: 0, location: undefined, body: "" });
      else reject(err);
    });
    req.end(body);
  });
}

describe("one canonical path at the edge", () => {
  test("a plaintext password to the login path is refused however the path is spelled", async () => {
    const plain = JSON.stringify({ loginName: "someone@example.com", pwd: "plaintext-password" });
    for (const target of [
      "/v1/user/login",
      "/v1/user/l%6Fgin",
      "/v1/user/l%6fgin",
      "/v1/%75ser/login",
      "/v1//user/login",
      "/v1/user/./login",
      "/v1/x/../user/login",
      "/v1/user/login/",
      "/v1/user/%2e/login",
    ]) {
      const res = await raw("POST", target, plain);
      const env = JSON.parse(res.body) as { code: string };
      // The login path's own refusal of a body that is not encrypted (same code every time).
      expect({ target, status: res.status, code: env.code }).toEqual({ target, status: 200, code: "11020" });
    }
    for (const target of ["/v1/user%2Flogin", "/v1/user/%5Clogin", "/v1/user\\login", "/v1/user/lo%00gin"]) {
      const res = await raw("POST", target, plain);
      expect({ target, status: res.status, code: (JSON.parse(res.body) as { code: string }).code }).toEqual({
        target,
        status: 400,
        code: "10410",
      });
    }
  });
});

describe("no open redirect", () => {
  test("every redirect the server answers to a hostile path is a same-origin path", async () => {
    const corpus = hostilePaths().filter(isWireSafe);
    expect(corpus.length).toBeGreaterThan(1_500);
    let redirects = 0;
    for (const start of corpus) {
      let target = start;
      for (let hop = 0; hop < 5; hop++) {
        const res = await raw("GET", target, undefined, { cookie: "locale=fr" });
        if (res.status < 300 || res.status >= 400) break;
        redirects++;
        const location = res.location ?? "";
        expect(isSameOriginPath(location), `${start} -> ${location}`).toBe(true);
        expect(new URL(location, run.server.url).origin).toBe(run.server.url);
        target = location;
      }
    }
    expect(redirects).toBeGreaterThan(1_000);
  }, 600_000);

  test("the login page's redirect parameter never leaves the site", async () => {
    const page = await newPage(run.browser, { allowErrors });
    const email = `redir${Date.now()}@example.com`;
    await registerThroughPages(page, run.server.url, email);
    const samples = [
      "//evil.example",
      "/EN//evil.example",
      "/fr-FR//evil.example",
      "/%2F%2Fevil.example",
      "/\\evil.example",
      "/en//evil.example?locale=fr",
      "https://evil.example/",
    ];
    expect(hostileRedirectParams()).toEqual(expect.arrayContaining(samples));
    for (const redirect of samples) {
      // Logged out, but the same browser: its device cookie stays, so only the first login
      // from it asks for the e-mail code.
      await page.context().clearCookies({ name: /^(?!mer_device$)/ });
      await page.goto(`${run.server.url}/login?redirect=${encodeURIComponent(redirect)}`);
      await page.waitForLoadState("networkidle");
      await page.getByTestId("login-name").fill(email);
      await page.getByTestId("login-password").fill(E2E_PASSWORD);
      await submitLogin(page, run.server.url, email);
      await page.waitForURL((url) => !url.pathname.endsWith("/login"), { timeout: 15_000 });
      await page.waitForLoadState("domcontentloaded");
      expect(new URL(page.url()).origin, redirect).toBe(run.server.url);
    }
  }, 120_000);
});

async function placeLimitBuy(page: Page): Promise<void> {
  await page.getByTestId("price-buy").fill("1000");
  await page.getByTestId("amount-buy").fill("0.01");
  await page.getByTestId("submit-buy").click();
}

describe("every trading write is signed", () => {
  test("a browser whose device key is gone re-authenticates and places a signed paper order", async () => {
    const page = await newPage(run.browser, {
      allowErrors: [...allowErrors, "Request signature missing", "00020"],
    });
    // A cold production server on a loaded shared machine can take longer than 30 s to render.
    page.setDefaultNavigationTimeout(90_000);
    const signedOrders: (string | undefined)[] = [];
    page.on("request", (req) => {
      if (req.method() === "POST" && new URL(req.url()).pathname === "/v1/paper/orders")
        signedOrders.push(req.headers()["device-sign"]);
    });
    const refusedUnsigned: string[] = [];
    page.on("response", async (res) => {
      if (!new URL(res.url()).pathname.startsWith("/v1/paper/")) return;
      const body = (await res.json().catch(() => null)) as { code?: string } | null;
      if (body?.code === "00020") refusedUnsigned.push(new URL(res.url()).pathname);
    });
    await registerThroughPages(page, run.server.url, `reauth${Date.now()}@example.com`);
    await page.context().addInitScript(() => localStorage.setItem("skipGuide", "1"));
    const openSpot = async () => {
      await page.goto(`${run.server.url}/spot/BTCUSDT`);
      await page.waitForLoadState("networkidle");
      if ((await page.getByTestId("simulation-badge").count()) === 0) {
        await page.getByTestId("enter-simulation").first().click();
        await page.getByTestId("simulation-badge").waitFor();
      }
    };
    await openSpot();
    await placeLimitBuy(page);
    await expect.poll(() => page.getByTestId("order-notice").textContent()).toBe("Order placed.");
    expect(signedOrders).toHaveLength(1);
    expect(signedOrders[0]).toBeTruthy();

    // Site data cleared, cookies kept: the session is valid, the key bound to it is gone.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Storage.clearDataForOrigin", {
      origin: run.server.url,
      storageTypes: "local_storage,indexeddb,cache_storage,service_workers",
    });
    await page.evaluate(() => sessionStorage.clear());
    await openSpot();
    // The page's first signed call (the open orders) goes out unsigned and is refused; the
    // client asks for the password instead of looping on "Request signature missing".
    await page.getByTestId("reauth-dialog").waitFor();
    expect(refusedUnsigned).toContain("/v1/paper/orders/open");
    await page.getByTestId("reauth-password").fill(E2E_PASSWORD);
    await page.getByTestId("reauth-submit").click();
    await page.getByTestId("reauth-dialog").waitFor({ state: "detached" });

    await placeLimitBuy(page);
    await expect.poll(() => page.getByTestId("order-notice").textContent()).toBe("Order placed.");
    expect(signedOrders.at(-1)).toBeTruthy();

    // The new key survives a reload (stored and bound): the lists load signed, and
    // cancelling is signed too.
    await openSpot();
    await expect
      .poll(() => page.getByTestId("open-orders").locator("tbody tr[data-order-id]").count())
      .toBe(2);
    await page.getByTestId("cancel-order").first().click();
    await expect
      .poll(() => page.getByTestId("open-orders").locator("tbody tr[data-order-id]").count())
      .toBe(1);
    expect(await page.getByTestId("reauth-dialog").count()).toBe(0);
  }, 300_000);

  test("a missing key while the sign config is reloading still leads to the dialog", async () => {
    const page = await newPage(run.browser, {
      allowErrors: [...allowErrors, "Request signature missing", "00020"],
    });
    page.setDefaultNavigationTimeout(90_000);
    await registerThroughPages(page, run.server.url, `reauth-pending${Date.now()}@example.com`);
    await page.context().addInitScript(() => localStorage.setItem("skipGuide", "1"));
    await page.goto(`${run.server.url}/spot/BTCUSDT`);
    await page.waitForLoadState("networkidle");
    if ((await page.getByTestId("simulation-badge").count()) === 0) {
      await page.getByTestId("enter-simulation").first().click();
      await page.getByTestId("simulation-badge").waitFor();
    }
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Storage.clearDataForOrigin", {
      origin: run.server.url,
      storageTypes: "local_storage,indexeddb,cache_storage,service_workers",
    });
    await page.evaluate(() => sessionStorage.clear());
    // Next load: the sign config (its cached copy gone) answers only after 4 s, so the
    // page's signed calls wait on a config reload while no key is held.
    await page.route("**/v1/mix/config/gatewaySignConfig", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      await route.continue();
    });
    const refused: string[] = [];
    page.on("response", async (res) => {
      if (!new URL(res.url()).pathname.startsWith("/v1/paper/")) return;
      const body = (await res.json().catch(() => null)) as { code?: string } | null;
      if (body?.code === "00020") refused.push(new URL(res.url()).pathname);
    });
    await page.goto(`${run.server.url}/spot/BTCUSDT`);
    await page.waitForLoadState("networkidle");
    // Clearing site data also turned simulation off: turning it on makes the signed calls.
    if ((await page.getByTestId("simulation-badge").count()) === 0)
      await page.getByTestId("enter-simulation").first().click();
    // Whatever the order of events, the browser ends at the password step, not stuck on 00020.
    await page.getByTestId("reauth-dialog").waitFor({ timeout: 60_000 });
    await page.getByTestId("reauth-password").fill(E2E_PASSWORD);
    await page.getByTestId("reauth-submit").click();
    await page.getByTestId("reauth-dialog").waitFor({ state: "detached" });
    await placeLimitBuy(page);
    await expect.poll(() => page.getByTestId("order-notice").textContent()).toBe("Order placed.");
    expect(refused.length).toBeGreaterThan(0);
  }, 300_000);
});
