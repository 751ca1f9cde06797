/**
 * The embeddable shell (docs/product.md §1: header, footer and legal dialog embedded on the
 * events and campaign pages): the static demo page at /embed-demo loads it with one
 * script tag under the server's CSP, and the shell's own pickers drive the host's
 * callbacks.
 */
import { describe, expect, test } from "vitest";
import { clickUntil } from "./antd.ts";
import { expectShippedFont, newPage, type Page, serverAndBrowser } from "./harness.ts";

const run = serverAndBrowser();

const header = (page: Page) => page.locator('#site-header [data-meridian-shell="header"]');
const footer = (page: Page) => page.locator('#site-footer [data-meridian-shell="footer"]');

/** Entries of the demo's callback log with this name, newest first. */
async function logged(page: Page, name: string): Promise<string[]> {
  return await page.locator(`[data-testid="callback-log"] li[data-callback="${name}"]`).allTextContents();
}

async function openDemo(page: Page, query = ""): Promise<void> {
  await page.goto(`${run.server.url}/embed-demo${query}`);
  await page.waitForSelector('body[data-shell-mounted="true"]');
}

describe("embeddable shell", () => {
  test("serves a short-cached loader pointing at long-cached hashed files", async () => {
    const loader = await fetch(`${run.server.url}/embed/shell.js`);
    expect(loader.status).toBe(200);
    expect(loader.headers.get("cache-control")).toBe("public, max-age=300");
    expect(loader.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(loader.headers.get("access-control-allow-origin")).toBe("*");
    const source = await loader.text();
    const entry = /"\.\/(assets\/meridian-shell-[\w-]+\.js)"/.exec(source)?.[1];
    const styles = /"\.\/(assets\/meridian-shell-[\w-]+\.css)"/.exec(source)?.[1];
    expect(entry).toBeDefined();
    expect(styles).toBeDefined();
    for (const file of [entry, styles]) {
      const res = await fetch(`${run.server.url}/embed/${file}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    }
    // The stylesheet's font files sit beside it: hashed, long-cached, open to other sites.
    const css = await (await fetch(`${run.server.url}/embed/${styles}`)).text();
    const latin = /url\(\.\/(inter-latin-wght-normal-[\w-]+\.woff2)\)/.exec(css)?.[1];
    expect(latin).toBeDefined();
    const font = await fetch(`${run.server.url}/embed/assets/${latin}`);
    expect(font.status).toBe(200);
    expect(font.headers.get("content-type")).toBe("font/woff2");
    expect(font.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(font.headers.get("access-control-allow-origin")).toBe("*");
    // An encoded slash never reaches a route: the edge refuses it (400, code 10410).
    expect((await fetch(`${run.server.url}/embed/assets/..%2Fshell.js`)).status).toBe(400);
    expect((await fetch(`${run.server.url}/embed/assets/missing-1234.js`)).status).toBe(404);

    const demo = await fetch(`${run.server.url}/embed-demo`);
    expect(demo.status).toBe(200);
    expect(demo.headers.get("content-security-policy")).toMatch(/script-src 'self' 'nonce-/);
    const html = await demo.text();
    expect(html.match(/<script\b[^>]*>/g)?.every((tag) => /\bsrc="/.test(tag))).toBe(true);
  });

  test("the demo page shows the header and footer under the CSP, with no console errors", async () => {
    const page = await newPage(run.browser);
    await openDemo(page);
    await expect.poll(() => header(page).locator(".shell-header").isVisible()).toBe(true);
    expect(await footer(page).locator(".shell-footer").isVisible()).toBe(true);
    expect(await header(page).getAttribute("dir")).toBe("ltr");
    expect(await header(page).getAttribute("class")).toContain("theme-white");
    expect(await header(page).getByTestId("language-picker").inputValue()).toBe("en");
    // The shell's stylesheet is scoped: the campaign page keeps its own link colour and font.
    const bodyFont = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
    expect(bodyFont).toMatch(/Georgia/);
    // The shell itself is drawn with the site's shipped Inter, served from /embed/assets.
    await expectShippedFont(page, "#site-header .shell-nav a");
    const headerBg = await header(page)
      .locator(".shell-header")
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(headerBg).toBe("rgb(24, 26, 32)");
    // Links go through onNavigate.
    await header(page).locator('.shell-nav a[href="/telegram-apps"]').click();
    await expect
      .poll(() => logged(page, "onNavigate"))
      .toEqual([expect.stringContaining('{"href":"/telegram-apps","key":"apps"}')]);
    await page.screenshot({ path: "/tmp/embed-demo-en.png", fullPage: true });
  });

  test("switching language in the embedded header calls onLanguageChange and re-renders (ar is rtl)", async () => {
    const page = await newPage(run.browser);
    await openDemo(page);
    const loginText = await header(page).locator(".shell-auth a").first().textContent();
    await header(page).getByTestId("language-picker").selectOption("ar");
    await expect.poll(() => logged(page, "onLanguageChange")).toEqual([expect.stringContaining('"ar"')]);
    await expect.poll(() => header(page).getAttribute("dir")).toBe("rtl");
    expect(await footer(page).getAttribute("dir")).toBe("rtl");
    expect(await header(page).getAttribute("lang")).toBe("ar");
    await expect.poll(() => header(page).locator(".shell-auth a").first().textContent()).not.toBe(loginText);
    expect(await header(page).getByTestId("language-picker").inputValue()).toBe("ar");
    await page.screenshot({ path: "/tmp/embed-demo-ar.png", fullPage: true });

    await header(page).getByTestId("language-picker").selectOption("ja");
    await expect.poll(() => header(page).getAttribute("dir")).toBe("ltr");
    await expect.poll(() => header(page).getAttribute("lang")).toBe("ja");
    expect((await logged(page, "onLanguageChange"))[0]).toContain('"ja"');
  });

  test("the theme toggle calls onThemeChange and switches the shell's theme", async () => {
    const page = await newPage(run.browser);
    await openDemo(page);
    await header(page).getByTestId("theme-toggle").click();
    await expect.poll(() => logged(page, "onThemeChange")).toEqual([expect.stringContaining('"black"')]);
    await expect.poll(() => header(page).getAttribute("class")).toContain("theme-black");
    expect(await footer(page).getAttribute("class")).toContain("theme-black");
    const footerBg = await footer(page)
      .locator(".shell-footer")
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(footerBg).toBe("rgb(11, 14, 17)");
    await page.screenshot({ path: "/tmp/embed-demo-dark.png", fullPage: true });
    await header(page).getByTestId("theme-toggle").click();
    await expect.poll(() => header(page).getAttribute("class")).toContain("theme-white");
  });

  test("the legal dialog opens from the embedded footer and closes", async () => {
    const page = await newPage(run.browser);
    await openDemo(page, "?locale=ar&theme=black");
    await expect.poll(() => header(page).getAttribute("dir")).toBe("rtl");
    await footer(page).getByTestId("legal-dialog-link").click();
    const dialog = page.locator(".shell-legal .ant-modal");
    await dialog.waitFor({ state: "visible" });
    expect(await dialog.locator(".shell-legal-section").count()).toBe(3);
    // The dialog lives in the shell's overlay element: scoped styles, theme and direction apply.
    const overlay = page.locator('[data-meridian-shell="overlay"]');
    expect(await overlay.getAttribute("dir")).toBe("rtl");
    expect(await overlay.locator(".shell-legal").count()).toBe(1);
    await page.screenshot({ path: "/tmp/embed-demo-legal.png" });
    await clickUntil(page.getByTestId("legal-dialog-close"), async () => !(await dialog.isVisible()));
  });

  test("update() from the host shows the user; unmount() removes everything", async () => {
    const page = await newPage(run.browser);
    await openDemo(page);
    await page.locator("#login-as-demo").click();
    await expect
      .poll(() => header(page).getByTestId("user-name").textContent())
      .toContain("Campaign visitor");
    await page.locator("#remount").click();
    await page.waitForSelector('body[data-shell-mounted="true"]');
    expect(await page.locator('[data-meridian-shell="overlay"]').count()).toBe(1);
    expect(await header(page).count()).toBe(1);
    expect(await header(page).getByTestId("user-name").count()).toBe(0);
  });
});
