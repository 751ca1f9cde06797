/**
 * antd in the dark theme (docs/product.md §4): on an antd page (/admin/airdrops: default and
 * primary Buttons, two Tables, a Modal) with the theme cookie at black, antd's surfaces
 * are dark in the server HTML before any script runs (the extracted stylesheet's
 * `.mer-dark` token blocks) and stay dark once React has hydrated (antd's runtime then
 * registers its token styles), in English and in Arabic. Every antd component carries
 * the dark cssVar key: one rendered outside the site's provider would carry antd's
 * default key and its light default theme. Also: the page hydrates without errors
 * (the dialogs' hidden forms once broke hydration, React error #418), and an open dialog
 * dims the page behind it in both themes (e2e/backdrop.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createAdmin, loginThroughPage } from "./account-flows.ts";
import { expectDimmed } from "./backdrop.ts";
import {
  type Browser,
  launchBrowser,
  newPage,
  type Page,
  type RunningServer,
  startServer,
} from "./harness.ts";

let server: RunningServer;
let browser: Browser;
const adminEmail = `theme-admin-${Date.now()}@example.com`;
const adminPassword = "admin-password-1";
let sessionCookies: { name: string; value: string }[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  createAdmin(server.dataDir, adminEmail, adminPassword);
  const login = await browser.newContext();
  const page = await login.newPage();
  await loginThroughPage(page, server.url, { email: adminEmail, password: adminPassword });
  sessionCookies = (await login.cookies()).map(({ name, value }) => ({ name, value }));
  await login.close();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface Surface {
  what: string;
  color: string;
  /** The antd cssVar key class on the component's root (mer-dark, mer-light, css-var-...). */
  key: string;
}

/** Computed backgrounds of the antd surfaces on the page, with the theme key each one sits under. */
function surfaces(page: Page): Promise<Surface[]> {
  return page.evaluate(() => {
    const keyOf = (el: Element) => {
      const root = el.closest('[class*="mer-"],[class*="css-var-"]');
      return root?.className.match(/\b(mer-[\w-]+|css-var-[\w-]+)\b/)?.[1] ?? "none";
    };
    const pick = (what: string, selector: string) =>
      [...document.querySelectorAll(selector)].slice(0, 2).map((el) => ({
        what,
        color: getComputedStyle(el).backgroundColor,
        key: keyOf(el),
      }));
    return [
      ...pick("default button", ".ant-btn.ant-btn-variant-outlined"),
      ...pick("table header", ".ant-table-thead > tr > th"),
      ...pick("modal", ".ant-modal-container"),
    ];
  });
}

/** Relative luminance (0 black .. 1 white) of an `rgb()`/`rgba()` colour, alpha ignored. */
function luminance(color: string): number {
  const [r = 255, g = 255, b = 255] = (color.match(/[\d.]+/g) ?? []).map(Number);
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function expectDark(found: Surface[], needed: string[], when: string): void {
  for (const what of needed) {
    expect(
      found.some((s) => s.what === what),
      `${when}: no ${what} on the page`,
    ).toBe(true);
  }
  for (const s of found) {
    expect(s.key, `${when}: ${s.what} theme key`).toBe("mer-dark");
    expect(luminance(s.color), `${when}: ${s.what} background ${s.color}`).toBeLessThan(0.05);
  }
}

const hydrated = (page: Page) =>
  // antd registers its token styles at runtime once React renders on the client.
  page.waitForFunction(() => document.querySelector("style[data-token-hash]") !== null);

describe("antd in the dark theme", () => {
  for (const lang of ["en", "ar"] as const) {
    const path = lang === "en" ? "/admin/airdrops" : "/ar/admin/airdrops";
    const cookies = () => ({
      url: server.url,
      values: { ...Object.fromEntries(sessionCookies.map((c) => [c.name, c.value])), theme: "black" },
    });

    test(`${lang}: buttons and tables are dark in the server HTML, before any script`, async () => {
      const page = await newPage(browser, { cookies: cookies(), context: { javaScriptEnabled: false } });
      await page.goto(`${server.url}${path}`);
      await page.waitForLoadState("load");
      expect(await page.locator("html").getAttribute("class")).toContain("theme-black");
      expectDark(await surfaces(page), ["default button", "table header"], `${lang} before hydration`);
    });

    test(`${lang}: buttons, tables and the edit dialog stay dark after hydration`, async () => {
      const page = await newPage(browser, { cookies: cookies(), locale: lang });
      await page.goto(`${server.url}${path}`);
      await page.waitForLoadState("networkidle");
      await hydrated(page);
      expectDark(await surfaces(page), ["default button", "table header"], `${lang} after hydration`);
      await page.locator(".ant-table-tbody .ant-btn").first().click();
      await page.locator(".ant-modal-container").first().waitFor();
      // The dialog's form is filled from the API once it opens (forms mounted after hydration).
      await expect.poll(() => page.locator(".ant-modal input").first().inputValue()).not.toBe("");
      expectDark(await surfaces(page), ["modal"], `${lang} dialog`);
      await expectDimmed(page, `${lang} dark dialog`);
    });
  }

  test("the light theme stays light (the check above can tell the two apart)", async () => {
    const page = await newPage(browser, {
      cookies: {
        url: server.url,
        values: { ...Object.fromEntries(sessionCookies.map((c) => [c.name, c.value])), theme: "white" },
      },
    });
    await page.goto(`${server.url}/admin/airdrops`);
    await page.waitForLoadState("networkidle");
    await hydrated(page);
    await page.locator(".ant-table-tbody .ant-btn").first().click();
    await page.locator(".ant-modal-container").first().waitFor();
    const found = await surfaces(page);
    expect(found.some((s) => s.what === "modal")).toBe(true);
    for (const s of found) {
      expect(s.key).toBe("mer-light");
      expect(luminance(s.color), `${s.what} ${s.color}`).toBeGreaterThan(0.5);
    }
    await expectDimmed(page, "light dialog");
  });
});
