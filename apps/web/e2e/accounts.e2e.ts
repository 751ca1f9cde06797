/**
 * Accounts in a real browser (docs/product.md §3, 4, 7, 8): register with the outbox code,
 * the header shows the user, two-factor setup over signed calls, logout, login with the
 * authenticator step, and a forced logout when a call answers 00004.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { totp } from "../../server/src/modules/accounts/totp.ts";
import { E2E_PASSWORD, outboxCode } from "./account-flows.ts";
import {
  type Browser,
  hydrated,
  launchBrowser,
  newPage,
  type RunningServer,
  startServer,
} from "./harness.ts";

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({}), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const EMAIL = `e2e${Date.now()}@example.com`;
/**
 * Logged-out account pages log the spec's "get user info error". The shell's script
 * nonce currently trips a hydration warning (browsers hide `nonce` from the DOM): not an
 * accounts matter, allowed here until the shell fixes it.
 */
const allowErrors = ["get user info error", "hydrated but some attributes"];

describe("accounts", () => {
  let secret = "";

  test("the login and sign-up forms are styled in the server HTML (antd runs without runtime CSS)", async () => {
    for (const path of ["/login", "/ar/register"]) {
      const page = await newPage(browser, { allowErrors, context: { javaScriptEnabled: false } });
      await page.goto(`${server.url}${path}`);
      await page.waitForLoadState("load");
      const look = await page.evaluate(() => {
        const style = (selector: string) => {
          const element = document.querySelector(selector);
          return element ? getComputedStyle(element) : null;
        };
        const card = style(".ant-card");
        const input = style(".ant-form input.ant-input, .ant-form .ant-input-affix-wrapper");
        return {
          cardRadius: Number.parseFloat(card?.borderTopLeftRadius ?? "0"),
          cardBorder: card?.borderTopStyle,
          inputRadius: Number.parseFloat(input?.borderTopLeftRadius ?? "0"),
          inputPadding: Number.parseFloat(input?.paddingInlineStart ?? "0"),
          inputHeight:
            (document.querySelector(".ant-form .ant-input") as HTMLElement | null)?.offsetHeight ?? 0,
        };
      });
      expect(look.cardBorder, path).toBe("solid");
      expect(look.cardRadius, path).toBeGreaterThan(0);
      expect(look.inputRadius, path).toBeGreaterThan(0);
      expect(look.inputPadding, path).toBeGreaterThanOrEqual(8);
      expect(look.inputHeight, path).toBeGreaterThanOrEqual(28);
    }
  });

  test("the login form asks for an area code only when the name is a phone number", async () => {
    const page = await newPage(browser, { allowErrors });
    await page.goto(`${server.url}/login`);
    await page.waitForLoadState("networkidle");
    const areaCode = page.getByTestId("login-area-code");
    expect(await areaCode.count()).toBe(0);
    await page.getByTestId("login-name").fill("+44 7700 900123");
    await areaCode.waitFor();
    await page.getByTestId("login-name").fill("someone@example.com");
    await areaCode.waitFor({ state: "detached" });
  });

  test("register with the emailed code, see the user in the header, set up two-factor, log out", async () => {
    const page = await newPage(browser, { allowErrors });
    await page.goto(`${server.url}/register?account=${encodeURIComponent(EMAIL)}`);
    await page.waitForLoadState("networkidle");
    await expect.poll(() => page.getByTestId("register-email").inputValue(), { timeout: 15_000 }).toBe(EMAIL);
    await page.getByTestId("register-send-code").click();
    await page.getByTestId("register-code").fill(await outboxCode(page, server.url, EMAIL));
    await page.getByTestId("register-password").fill(E2E_PASSWORD);
    await page.getByTestId("register-password-again").fill(E2E_PASSWORD);
    await page.getByTestId("register-submit").click();
    await page.waitForURL(/\/account\/overview$/);
    await expect
      .poll(() => page.getByTestId("account-overview").textContent(), { timeout: 15_000 })
      .toContain(EMAIL);
    expect(await page.locator("header.shell-header").textContent()).toContain(EMAIL);
    expect(await page.evaluate(() => localStorage.getItem("userId"))).toMatch(/^\d{10}$/);

    await page.goto(`${server.url}/account/security`);
    await page.getByTestId("tfa-start").click();
    secret = (await page.getByTestId("tfa-secret").textContent())?.trim() ?? "";
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await page.getByTestId("tfa-uri").textContent()).toContain("otpauth://totp/");
    expect(await page.locator('[data-testid="tfa-qr"] svg path').count()).toBeGreaterThan(0);
    await page.getByTestId("tfa-code").fill(totp(secret, Date.now()));
    await page.getByTestId("tfa-bind").click();
    await page.getByTestId("tfa-enabled").waitFor();

    await page.goto(`${server.url}/account/overview`);
    await page.getByTestId("account-logout").click();
    await page.waitForURL(`${server.url}/`);
    expect(await page.locator("header.shell-header").textContent()).not.toContain(EMAIL);
    const cookies = await page.context().cookies();
    expect(cookies.map((c) => c.name)).not.toContain("mer_token");
  });

  test("log in with the authenticator step; a 00004 answer forces a logout", async () => {
    const page = await newPage(browser, { allowErrors });
    await page.goto(`${server.url}/login`);
    // Submitting before hydration would post the form natively.
    await hydrated(page, "login-name");
    await page.getByTestId("login-name").fill(EMAIL);
    await page.getByTestId("login-password").fill(E2E_PASSWORD);
    await page.getByTestId("login-submit").click();
    // The next TOTP step: the one used to bind is spent.
    await page.getByTestId("login-code").fill(totp(secret, Date.now() + 30_000));
    await page.getByTestId("login-verify-submit").click();
    await page.waitForURL(/\/account\/overview$/);
    expect(await page.locator("header.shell-header").textContent()).toContain(EMAIL);

    // Fill a form that needs the session, end the session behind the page's back (same
    // cookie jar), then submit: the call answers 00004 and the client forces a logout.
    await page.goto(`${server.url}/account/identity`);
    await page.waitForLoadState("networkidle");
    await page.getByLabel("Given name").fill("Jane");
    await page.getByLabel("Family name").fill("Doe");
    await page.getByLabel("Country").fill("PT");
    await page.keyboard.press("Enter");
    await page.getByLabel("Document number").fill("AB123456");
    await page.request.post(`${server.url}/v1/user/logout`, { headers: { origin: server.url } });
    await page
      .context()
      .addCookies([
        { name: "mer_token", value: "revoked-token-revoked-token-0000000000000", url: server.url },
      ]);
    const reloaded = page.waitForEvent("load");
    await page.getByRole("button", { name: "Submit level 1" }).click();
    await reloaded;
    await page.getByText("Please log in").waitFor();
    expect((await page.context().cookies()).map((c) => c.name)).not.toContain("mer_token");
    expect(await page.evaluate(() => localStorage.getItem("userId"))).toBeNull();
  });

  test("Japanese pages, ?redirect= honoured for this site only, logout from the header's user menu", async () => {
    const page = await newPage(browser, { allowErrors, locale: "ja" });
    const email = `ja${Date.now()}@example.com`;
    await page.goto(`${server.url}/ja/register?redirect=${encodeURIComponent("/ja/telegram-apps")}`);
    await page.waitForLoadState("networkidle");
    expect(await page.title()).toBe("新規登録 | Meridian");
    await page.getByText("無料アカウントを作成").waitFor();
    await page.getByTestId("register-submit").click();
    await page.getByText("メールアドレスを入力してください").waitFor();
    await page.getByTestId("register-email").fill(email);
    await page.getByTestId("register-send-code").click();
    await page.getByTestId("register-code").fill(await outboxCode(page, server.url, email));
    await page.getByTestId("register-password").fill(E2E_PASSWORD);
    await page.getByTestId("register-password-again").fill(E2E_PASSWORD);
    await page.getByTestId("register-submit").click();
    await page.waitForURL(`${server.url}/ja/telegram-apps`);

    const logout = async () => {
      await page.getByTestId("user-name").click();
      const reloaded = page.waitForEvent("load");
      await page.getByTestId("logout").click();
      await reloaded;
      await page.getByRole("link", { name: "ログイン" }).first().waitFor();
      expect(await page.locator("header.shell-header").textContent()).not.toContain(email);
      expect((await page.context().cookies()).map((c) => c.name)).not.toContain("mer_token");
      expect(await page.evaluate(() => localStorage.getItem("userId"))).toBeNull();
    };
    await expect
      .poll(() => page.locator("header.shell-header").textContent(), { timeout: 15_000 })
      .toContain(email);
    await logout();

    const login = async (redirect: string) => {
      await page.goto(`${server.url}/ja/login?redirect=${encodeURIComponent(redirect)}`);
      await page.waitForLoadState("networkidle");
      await page.getByTestId("login-name").fill(email);
      await page.getByTestId("login-password").fill(E2E_PASSWORD);
      await page.getByTestId("login-submit").click();
    };
    await login("/ja/telegram-apps/catizen");
    await page.waitForURL(`${server.url}/ja/telegram-apps/catizen`);
    // The session load on app start caches the user id on every page, not only account pages.
    await expect.poll(() => page.evaluate(() => localStorage.getItem("userId"))).toMatch(/^\d{10}$/);
    await logout();

    for (const foreign of ["https://evil.example/", "//evil.example/x", "/\\evil.example"]) {
      await login(foreign);
      await page.waitForURL(`${server.url}/ja/account/overview`);
      expect(await page.title()).toBe("アカウント | Meridian");
      await page.getByTestId("account-overview").waitFor();
    }
  });
});
