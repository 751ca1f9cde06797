/**
 * The interface font (app/styles/fonts.css): Inter and Noto Sans Arabic ship with the
 * site, so text is drawn the same on every machine; the header's layout at 1280 px holds
 * with them; the fallback faces keep the swap from moving the page.
 */
import { describe, expect, test } from "vitest";
import { registerThroughPages } from "./account-flows.ts";
import { expectShippedFont, newPage, type Page, serverAndBrowser, usedFonts } from "./harness.ts";

const run = serverAndBrowser({ env: { DEV_OUTBOX: "true" } });

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

/** The header's sections, measured: do they fit, and does the header say they overflow. */
async function headerFit(page: Page) {
  return await page.evaluate(() => {
    const nav = document.querySelector(".shell-nav");
    return {
      fits: nav !== null && nav.scrollWidth <= nav.clientWidth + 1,
      flagged: document.querySelector("header.shell-header")?.hasAttribute("data-nav-overflow") ?? false,
    };
  });
}

describe("shipped faces", () => {
  test.for([
    ["/airdrops", "Inter Variable"],
    ["/ru/airdrops", "Inter Variable"],
    ["/vi/airdrops", "Inter Variable"],
    ["/ar/airdrops", "Noto Sans Arabic Variable"],
  ] as const)("%s is drawn with the shipped %s, not the machine's fonts", async ([path, face]) => {
    const page = await newPage(run.browser);
    await page.goto(`${run.server.url}${path}`);
    await expectShippedFont(page, ".shell-nav a", face);
  });

  test("antd's components take the same faces from its fontFamily token", async () => {
    const page = await newPage(run.browser);
    await page.goto(`${run.server.url}/login`);
    await expectShippedFont(page, '[data-testid="login-submit"]');
  });

  test("the Latin face is preloaded, hashed and cached for a year; English pages fetch no Arabic", async () => {
    const html = await (await fetch(`${run.server.url}/`)).text();
    const preloads = [
      ...html.matchAll(/<link rel="preload" href="([^"]+)" as="font" type="font\/woff2"/g),
    ].map((m) => m[1]);
    expect(preloads).toEqual([expect.stringMatching(/^\/assets\/inter-latin-wght-normal-[\w-]+\.woff2$/)]);
    const font = await fetch(`${run.server.url}${preloads[0]}`);
    expect(font.status).toBe(200);
    expect(font.headers.get("content-type")).toBe("font/woff2");
    expect(font.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const arabic = await (await fetch(`${run.server.url}/ar`)).text();
    expect(arabic).toMatch(
      /<link rel="preload" href="\/assets\/noto-sans-arabic-arabic-wght-normal-[\w-]+\.woff2"/,
    );

    const page = await newPage(run.browser);
    const fetched: string[] = [];
    page.on("requestfinished", (request) => {
      if (request.url().endsWith(".woff2")) fetched.push(new URL(request.url()).pathname);
    });
    await page.goto(`${run.server.url}/`);
    await hydrated(page);
    await expectShippedFont(page, ".shell-nav a");
    // The preload is the file the stylesheet's face uses: one request, not two.
    expect(fetched.filter((path) => path === preloads[0])).toHaveLength(1);
    expect(fetched.some((path) => path.includes("arabic"))).toBe(false);
  });

  test("with the font files held back, the fallback faces give text Inter's line boxes and widths", async () => {
    // The header's sections and the page's headings: single lines, so their boxes compare.
    const boxes = async (page: Page) =>
      await page.evaluate(() =>
        [...document.querySelectorAll(".shell-nav a, main h1, main h2")].slice(0, 12).map((el) => {
          const range = document.createRange();
          range.selectNodeContents(el);
          const box = range.getBoundingClientRect();
          // Tops only above the content, which may wrap a paragraph at another word.
          const above = el.closest("header") !== null || el.tagName === "H1";
          return { text: el.textContent, top: above ? box.top : 0, width: box.width, height: box.height };
        }),
      );
    const shipped = await newPage(run.browser);
    await shipped.goto(`${run.server.url}/airdrops`);
    await expectShippedFont(shipped, ".shell-nav a");
    const withInter = await boxes(shipped);

    const held = await newPage(run.browser, { allowErrors: [/ERR_FAILED/] });
    await held.route(/\.woff2$/, (route) => route.abort());
    await held.goto(`${run.server.url}/airdrops`);
    await held.evaluate(() => document.fonts.ready);
    const fallback = await held.evaluate(() =>
      [...document.fonts]
        .filter((f) => f.family.startsWith("Inter Fallback") && f.status === "loaded")
        .map((f) => f.family),
    );
    // .ci/run installs fonts-noto-core for this: Noto Sans is Linux's fallback face.
    expect(
      fallback,
      "no local font for a fallback face (Arial, Liberation Sans, Roboto, Noto Sans)",
    ).not.toEqual([]);
    expect((await usedFonts(held, ".shell-nav a")).every((f) => !f.isCustomFont)).toBe(true);
    const withFallback = await boxes(held);

    expect(withFallback.map((box) => box.text)).toEqual(withInter.map((box) => box.text));
    for (const [i, inter] of withInter.entries()) {
      const other = withFallback[i];
      // Unadjusted, Noto Sans's line boxes were 2 to 4 px taller, moving what follows.
      expect(Math.abs(inter.height - (other?.height ?? Number.NaN)), inter.text ?? "").toBeLessThanOrEqual(1);
      expect(Math.abs(inter.top - (other?.top ?? Number.NaN)), inter.text ?? "").toBeLessThanOrEqual(1);
    }
    const navWidth = (list: { width: number }[]) => list.slice(0, 8).reduce((sum, box) => sum + box.width, 0);
    expect(Math.abs(navWidth(withFallback) / navWidth(withInter) - 1)).toBeLessThan(0.03);
  });
});

describe("header at 1280 px with the shipped font", () => {
  test("English sections fit logged out and logged in; the account shows as its avatar", async () => {
    const visitor = await newPage(run.browser, { viewport: { width: 1280, height: 800 } });
    await visitor.goto(`${run.server.url}/airdrops`);
    await hydrated(visitor);
    await expectShippedFont(visitor, ".shell-nav a");
    await expect.poll(() => headerFit(visitor)).toEqual({ fits: true, flagged: false });
    expect(await visitor.getByTestId("menu-button").isVisible()).toBe(false);

    const page = await newPage(run.browser, { viewport: { width: 1280, height: 800 } });
    const email = `a-rather-long-account-name-${Date.now()}@example.com`;
    await registerThroughPages(page, run.server.url, email);
    await page.goto(`${run.server.url}/airdrops`);
    await hydrated(page);
    await expectShippedFont(page, ".shell-nav a");
    await expect.poll(() => headerFit(page)).toEqual({ fits: true, flagged: false });
    expect(await page.locator(".shell-assets-link").isVisible()).toBe(true);
    expect(await page.getByTestId("menu-button").isVisible()).toBe(false);
    expect(await page.locator(".shell-user-avatar").isVisible()).toBe(true);
    expect(await page.locator(".shell-user-name").isVisible()).toBe(false);
    expect(await page.getByTestId("user-name").getAttribute("title")).toBe(email);

    // From 1440 px the name shows beside the avatar, and the sections still fit.
    await page.setViewportSize({ width: 1440, height: 800 });
    await expect.poll(() => page.locator(".shell-user-name").isVisible()).toBe(true);
    await expect.poll(() => headerFit(page)).toEqual({ fits: true, flagged: false });
  }, 120_000);
});
