/**
 * The page shell (docs/product.md §2, "Shared page shell"; section 4, theme): language and
 * direction, theme from cookie and `?appTheme=`, switching both from the header, the 404
 * page and the security headers, in a real browser against the production server.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { clickUntil } from "./antd.ts";
import {
  type Browser,
  expectShippedFont,
  launchBrowser,
  newPage,
  type Page,
  type RunningServer,
  startServer,
} from "./harness.ts";

/** The shell's hooks for tests (apps/web/app/features/shell/header-controls.tsx). */
const ids = {
  languagePicker: "language-picker",
  themeToggle: "theme-toggle",
  fiatPicker: "fiat-picker",
  legalLink: "legal-dialog-link",
  legalClose: "legal-dialog-close",
  downloadBar: "download-bar",
  downloadBarClose: "download-bar-close",
};
/** `<html>` carries `theme-white` or `theme-black` (apps/web/app/theme/theme.ts). */
const WHITE = "theme-white";
const BLACK = "theme-black";

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The document element's class list: the theme class is one of them. */
async function rootClasses(page: Page): Promise<string[]> {
  return await page.evaluate(() => [...document.documentElement.classList]);
}

async function cookie(page: Page, name: string): Promise<string | undefined> {
  const cookies = await page.context().cookies(server.url);
  return cookies.find((c) => c.name === name)?.value;
}

/**
 * Waits until React has hydrated the document and committed: React has claimed the
 * `<body>` node, then two frames and a task pass so effects and hydration warnings
 * (which newPage turns into failures) have been flushed.
 */
async function hydrated(page: Page): Promise<void> {
  // A page without hydration (the content pages) is ready once its islands are wired.
  await page.waitForFunction(
    () =>
      Object.keys(document.body).some((key) => key.startsWith("__reactFiber$")) ||
      document.documentElement.hasAttribute("data-islands"),
  );
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0))),
      ),
  );
}

describe("language and direction", () => {
  test("English pages are lang=en, dir=ltr", async () => {
    const page = await newPage(browser);
    const response = await page.goto(`${server.url}/`);
    expect(response?.status()).toBe(200);
    await hydrated(page);
    await expect.poll(() => page.locator("html").getAttribute("lang")).toBe("en");
    expect(await page.locator("html").getAttribute("dir")).toBe("ltr");
  });

  test("Arabic pages are lang=ar, dir=rtl, in the server HTML and after hydration", async () => {
    const html = await (await fetch(`${server.url}/ar`)).text();
    expect(html).toMatch(/<html[^>]*\blang="ar"/);
    expect(html).toMatch(/<html[^>]*\bdir="rtl"/);

    const page = await newPage(browser, { locale: "ar" });
    const response = await page.goto(`${server.url}/ar`);
    expect(response?.status()).toBe(200);
    await hydrated(page);
    expect(await page.locator("html").getAttribute("lang")).toBe("ar");
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
  });

  test("switching language in the header adds the prefix and ?locale=, and sets the cookie", async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}/`);
    await hydrated(page);
    await page.getByTestId(ids.languagePicker).selectOption("ar");

    await page.waitForURL((url) => url.pathname === "/ar" || url.pathname.startsWith("/ar/"));
    const url = new URL(page.url());
    expect(url.searchParams.get("locale")).toBe("ar");
    await expect.poll(() => page.locator("html").getAttribute("lang")).toBe("ar");
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    expect(await cookie(page, "locale")).toBe("ar");
  });
});

describe("request headers (docs/product.md §7)", () => {
  /** Headers of the browser's calls to `/v1/user/overview/userinfo` (every page makes one). */
  function userInfoCalls(page: Page): Record<string, string>[] {
    const calls: Record<string, string>[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/v1/user/overview/userinfo") calls.push(request.headers());
    });
    return calls;
  }

  test("calls carry the page's locale and language keys, the terminal code and the device id", async () => {
    const page = await newPage(browser, { locale: "ja" });
    const calls = userInfoCalls(page);
    await page.goto(`${server.url}/ja`);
    await hydrated(page);
    await expect.poll(() => calls.length).toBeGreaterThan(0);
    expect(calls[0]).toMatchObject({ locale: "ja", language: "ja_JP", website: "mix", "terminal-type": "1" });
    const stored = () =>
      page.evaluate(() => ({
        terminalCode: localStorage.getItem("terminalCode"),
        appVersion: localStorage.getItem("appVersion"),
        deviceId: localStorage.getItem("meridian_fingerprint"),
      }));
    // the tracking SDK makes the device id after hydration; the app version is stored at once
    await expect.poll(async () => (await stored()).deviceId, { timeout: 15_000 }).toMatch(/^[0-9a-f]{16}$/);
    const keys = await stored();
    expect(keys.terminalCode).toMatch(/^[0-9a-f]{32}$/);
    expect(keys.appVersion).toMatch(/^\d+\.\d+\.\d+$/);
    expect(calls[0]?.["terminal-code"]).toBe(keys.terminalCode);

    await page.goto(`${server.url}/ar/airdrops`);
    await hydrated(page);
    await expect.poll(() => calls.length).toBeGreaterThan(1);
    expect(calls.at(-1)).toMatchObject({
      locale: "ar",
      language: "ar_SA",
      "terminal-code": keys.terminalCode,
      "device-id": keys.deviceId,
    });
  });
});

describe("theme", () => {
  test("no cookie means white", async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}/`);
    await hydrated(page);
    expect(await rootClasses(page)).toContain(WHITE);
    expect(await rootClasses(page)).not.toContain(BLACK);
  });

  test("the theme cookie picks the class, in the server HTML already", async () => {
    const html = await (await fetch(`${server.url}/`, { headers: { cookie: "theme=black" } })).text();
    expect(html).toMatch(new RegExp(`<html[^>]*\\bclass="[^"]*\\b${BLACK}\\b`));

    const page = await newPage(browser, { cookies: { url: server.url, values: { theme: "black" } } });
    await page.goto(`${server.url}/`);
    await hydrated(page);
    expect(await rootClasses(page)).toContain(BLACK);
  });

  test("an invalid theme cookie falls back to white", async () => {
    const page = await newPage(browser, { cookies: { url: server.url, values: { theme: "purple" } } });
    await page.goto(`${server.url}/`);
    await hydrated(page);
    expect(await rootClasses(page)).toContain(WHITE);
  });

  test("?appTheme=dark forces black over a white cookie", async () => {
    const page = await newPage(browser, { cookies: { url: server.url, values: { theme: "white" } } });
    await page.goto(`${server.url}/?appTheme=dark`);
    await hydrated(page);
    expect(await rootClasses(page)).toContain(BLACK);
  });

  test("?appTheme=standard forces white over a black cookie", async () => {
    const page = await newPage(browser, { cookies: { url: server.url, values: { theme: "black" } } });
    await page.goto(`${server.url}/?appTheme=standard`);
    await hydrated(page);
    expect(await rootClasses(page)).toContain(WHITE);
  });

  test("the header toggle flips the class, writes the cookie and survives a reload", async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}/`);
    await hydrated(page);
    expect(await rootClasses(page)).toContain(WHITE);

    await page.getByTestId(ids.themeToggle).click();
    await expect.poll(() => rootClasses(page)).toContain(BLACK);
    expect(await cookie(page, "theme")).toBe("black");

    await page.reload();
    await hydrated(page);
    expect(await rootClasses(page)).toContain(BLACK);

    await page.getByTestId(ids.themeToggle).click();
    await expect.poll(() => rootClasses(page)).toContain(WHITE);
    expect(await cookie(page, "theme")).toBe("white");
  });
});

describe("header and footer controls", () => {
  test("the fiat picker starts at the locale's currency and keeps a choice across reloads", async () => {
    const page = await newPage(browser, { locale: "ar" });
    await page.goto(`${server.url}/ar`);
    await hydrated(page);
    expect(await page.getByTestId(ids.fiatPicker).inputValue()).toBe("AED");

    await page.getByTestId(ids.fiatPicker).selectOption("EUR");
    await page.reload();
    await hydrated(page);
    await expect.poll(() => page.getByTestId(ids.fiatPicker).inputValue()).toBe("EUR");
  });

  test("the footer opens the legal dialog and its button closes it", async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}/`);
    await hydrated(page);
    await page.getByTestId(ids.legalLink).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor({ state: "visible" });
    // A click while the dialog still zooms in can land beside the button on a loaded machine.
    await clickUntil(page.getByTestId(ids.legalClose), async () => !(await dialog.isVisible()));
  });

  test("sections too wide for the header fade out and the menu button lists them all", async () => {
    // Russian at 1280 px: the sections need more room than the header has left
    const narrow = await newPage(browser, { viewport: { width: 1280, height: 800 } });
    await narrow.goto(`${server.url}/ru/airdrops`);
    await hydrated(narrow);
    // Widths are the shipped font's on every machine (fonts.e2e covers the font itself).
    await expectShippedFont(narrow, ".shell-nav a");
    const header = narrow.locator("header.shell-header");
    await expect.poll(() => header.getAttribute("data-nav-overflow")).toBe("");
    expect(await narrow.locator(".shell-nav").evaluate((nav) => getComputedStyle(nav).maskImage)).toContain(
      "linear-gradient",
    );
    await narrow.getByTestId("menu-button").click();
    const drawer = narrow.locator(".shell-drawer-nav");
    await drawer.waitFor({ state: "visible" });
    expect(await drawer.locator("a").count()).toBe((await narrow.locator(".shell-nav a").count()) + 1); // + assets

    // wide enough: every section shows, no fade, no menu button
    const wide = await newPage(browser, { viewport: { width: 1800, height: 800 } });
    await wide.goto(`${server.url}/airdrops`);
    await hydrated(wide);
    await expectShippedFont(wide, ".shell-nav a");
    expect(await wide.locator("header.shell-header").getAttribute("data-nav-overflow")).toBeNull();
    expect(await wide.getByTestId("menu-button").isVisible()).toBe(false);

    // English for a visitor (no account links beside the sections) fits at 1280 px
    const visitor = await newPage(browser, { viewport: { width: 1280, height: 800 } });
    await visitor.goto(`${server.url}/airdrops`);
    await hydrated(visitor);
    await expectShippedFont(visitor, ".shell-nav a");
    expect(await visitor.locator("header.shell-header").getAttribute("data-nav-overflow")).toBeNull();
    expect(await visitor.locator(".shell-assets-link").count()).toBe(0);
    expect(await visitor.locator(".shell-nav a").last().isVisible()).toBe(true);
  }, 120_000);

  test("a closed download bar stays closed after a reload", async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}/`);
    await hydrated(page);
    await page.getByTestId(ids.downloadBar).waitFor({ state: "visible" });
    await page.getByTestId(ids.downloadBarClose).click();
    await page.getByTestId(ids.downloadBar).waitFor({ state: "hidden" });

    await page.reload();
    // Hidden before first paint too: the server HTML has the bar, a head script hides it.
    expect(await page.getByTestId(ids.downloadBar).isVisible()).toBe(false);
    await hydrated(page);
    expect(await page.getByTestId(ids.downloadBar).isVisible()).toBe(false);
  });
});

describe("not found", () => {
  test("an unknown path answers 404 with the message and a link home", async () => {
    const page = await newPage(browser, { allowErrors: [/status of 404/] });
    const response = await page.goto(`${server.url}/no-such-page-${Date.now()}`);
    expect(response?.status()).toBe(404);
    await hydrated(page);
    await expect.poll(() => page.getByText("404 - Page not found").count()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="not-found"] a[href="/"]').count()).toBe(1);
  });

  test("an unknown path under a language prefix is a 404 too", async () => {
    const response = await fetch(`${server.url}/ar/no-such-page`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toMatch(/<html[^>]*\bdir="rtl"/);
    // The way home keeps the visitor's language.
    expect(html).toMatch(/data-testid="not-found"[\s\S]*href="\/ar"/);
  });
});

describe("security headers", () => {
  test("a page carries a nonce-based CSP that every inline script honours", async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    const csp = response.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(csp).toMatch(/script-src [^;]*'nonce-/);
    expect(nonce).toBeTruthy();
    expect(csp).toMatch(/object-src 'none'/);
    expect(csp).toMatch(/frame-ancestors/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBeTruthy();

    const html = await response.text();
    const inlineScripts = [...html.matchAll(/<script\b([^>]*)>/g)]
      .map((match) => match[1] ?? "")
      .filter((attrs) => !/\bsrc=/.test(attrs));
    expect(inlineScripts.length).toBeGreaterThan(0);
    for (const attrs of inlineScripts) expect(attrs).toContain(`nonce="${nonce}"`);

    const second = await fetch(`${server.url}/`);
    await second.body?.cancel();
    const secondNonce = /'nonce-([^']+)'/.exec(second.headers.get("content-security-policy") ?? "")?.[1];
    expect(secondNonce).not.toBe(nonce);
  });

  test("the browser reports no CSP violation while the page hydrates", async () => {
    const page = await newPage(browser);
    const violations: string[] = [];
    await page.exposeFunction("__reportViolation", (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        const report = (window as unknown as { __reportViolation: (text: string) => void }).__reportViolation;
        report(
          `${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
        );
      });
    });
    await page.goto(`${server.url}/`);
    await hydrated(page);
    expect(violations).toEqual([]);
  });
});

describe("home", () => {
  test("the hero lists the eight largest coins by market cap, with prices that move live", async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}/`);
    const rows = page.getByTestId("home-markets").locator("li");
    // In the server's HTML already, largest market cap first.
    expect(await rows.count()).toBe(8);
    expect(await rows.first().getAttribute("data-symbol")).toBe("BTCUSDT");
    const prices = () => page.getByTestId("home-market-price").allTextContents();
    const first = await prices();
    for (const p of first) expect(p).toMatch(/^\d{1,3}(,\d{3})*(\.\d+)?$/);
    // The market socket's tickers replace them as the simulated market moves.
    await expect.poll(prices, { timeout: 20_000 }).not.toEqual(first);
    await rows.first().locator("a").click();
    await page.waitForURL(`${server.url}/spot/BTCUSDT`);
  });

  test("ships no React, only the islands bundle; its paper-trading button enters simulation", async () => {
    const page = await newPage(browser);
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(`${server.url}/ar`);
    await hydrated(page);
    expect(await page.evaluate(() => document.documentElement.hasAttribute("data-islands"))).toBe(true);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toMatch(/^\/assets\/islands-/);
    expect(await page.evaluate(() => localStorage.getItem("simulation-trade"))).toBeNull();
    await page.locator(".home-hero-actions a").first().click();
    await page.waitForURL(`${server.url}/ar/spot/BTCUSDT`);
    expect(await page.evaluate(() => localStorage.getItem("simulation-trade"))).toBe("1");
  });
});
