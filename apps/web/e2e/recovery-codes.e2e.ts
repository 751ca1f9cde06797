/**
 * Recovery codes in a real browser (docs/accounts.md, "Second factors"): binding the
 * authenticator shows ten codes once; a code logs in once in place of the authenticator
 * and is refused the second time; the security page counts what is left and makes new
 * codes for a current authenticator code, in English and in Arabic on a phone.
 */
import { describe, expect, test } from "vitest";
import { totp } from "../../server/src/modules/accounts/totp.ts";
import { E2E_PASSWORD, registerThroughPages, textOf } from "./account-flows.ts";
import { hydrated, newPage, type Page, serverAndBrowser } from "./harness.ts";

const run = serverAndBrowser();
const EMAIL = `recovery${Date.now()}@example.com`;
/** Logged-out pages log the spec's "get user info error"; a refused code is an HTTP 400. */
const allowErrors = ["get user info error", "hydrated but some attributes", /status of 400/];

async function codesOnPage(page: Page): Promise<string[]> {
  const items = page.locator('[data-testid="recovery-code-list"] li');
  await items.first().waitFor();
  return (await items.allTextContents()).map((s) => s.trim());
}

/** Password, then the recovery code instead of the authenticator's. */
async function loginWithRecovery(page: Page, code: string): Promise<void> {
  await page.goto(`${run.server.url}/login`);
  await hydrated(page, "login-name");
  await page.getByTestId("login-name").fill(EMAIL);
  await page.getByTestId("login-password").fill(E2E_PASSWORD);
  await page.getByTestId("login-submit").click();
  await page.getByTestId("login-recovery-switch").click();
  await page.getByTestId("login-recovery-code").fill(code);
  await page.getByTestId("login-verify-submit").click();
}

describe("recovery codes", () => {
  let secret = "";
  let codes: string[] = [];

  test("binding the authenticator shows ten codes once; the security page counts them", async () => {
    const page = await newPage(run.browser, { allowErrors });
    await registerThroughPages(page, run.server.url, EMAIL);
    await page.goto(`${run.server.url}/account/security`);
    await page.getByTestId("tfa-start").click();
    secret = (await textOf(page, "tfa-secret")).trim();
    await page.getByTestId("tfa-code").fill(totp(secret, Date.now()));
    await page.getByTestId("tfa-bind").click();
    await page.getByTestId("tfa-enabled").waitFor();
    codes = await codesOnPage(page);
    expect(codes).toHaveLength(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    await expect.poll(() => textOf(page, "recovery-remaining")).toBe("Unused recovery codes: 10 of 10.");
    // Shown once: a reload shows the count, never the codes.
    await page.reload();
    await page.getByTestId("recovery-remaining").waitFor();
    expect(await page.getByTestId("recovery-code-list").count()).toBe(0);
  });

  test("a code logs in once; the second time it is refused and the page stays on the code step", async () => {
    const [first = "", second = ""] = codes;
    const page = await newPage(run.browser, { allowErrors });
    await loginWithRecovery(page, first.toUpperCase());
    await page.waitForURL(/\/account\/overview$/);

    const again = await newPage(run.browser, { allowErrors });
    await loginWithRecovery(again, first);
    await expect
      .poll(() => textOf(again, "login-error"))
      .toBe("The recovery code is wrong or has already been used.");
    expect(again.url()).toMatch(/\/login$/);
    await again.getByTestId("login-recovery-code").fill(second);
    await again.getByTestId("login-verify-submit").click();
    await again.waitForURL(/\/account\/overview$/);

    await again.goto(`${run.server.url}/account/security`);
    await expect.poll(() => textOf(again, "recovery-remaining")).toBe("Unused recovery codes: 8 of 10.");
  });

  test("new codes for a current authenticator code, in Arabic on a phone, replace the old ones", async () => {
    const page = await newPage(run.browser, {
      allowErrors,
      locale: "ar",
      colorScheme: "dark",
      viewport: { width: 390, height: 844 },
    });
    await loginWithRecovery(page, codes[2] ?? "");
    await page.waitForURL(/\/account\/overview$/);
    await page.goto(`${run.server.url}/ar/account/security`);
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    await hydrated(page, "recovery-google");
    await expect.poll(() => textOf(page, "recovery-remaining")).toContain("7");
    await page.getByTestId("recovery-google").fill("000000");
    await page.getByTestId("recovery-regenerate").click();
    await expect.poll(() => textOf(page, "recovery-error")).toBe("رمز تطبيق المصادقة غير صحيح.");
    // The step after the one the bind spent.
    await page.getByTestId("recovery-google").fill(totp(secret, Date.now() + 30_000));
    await page.getByTestId("recovery-regenerate").click();
    const fresh = await codesOnPage(page);
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => codes.includes(c))).toBe(false);
    await expect.poll(() => textOf(page, "recovery-remaining")).toContain("10");

    const old = await newPage(run.browser, { allowErrors });
    await loginWithRecovery(old, codes[3] ?? "");
    await old.getByTestId("login-error").waitFor();
    await old.getByTestId("login-recovery-code").fill(fresh[0] ?? "");
    await old.getByTestId("login-verify-submit").click();
    await old.waitForURL(/\/account\/overview$/);
  });
});
