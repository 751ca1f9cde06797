/**
 * The account centre in Chromium against the real server, on SQLite and (with
 * TEST_DATABASE_URL) PostgreSQL: the seeded demo accounts, sign-up with the code from the
 * log, password change and reset, each security page, and a phone-number change (the SMS
 * code read from the server's log). Mail is read from a real SMTP
 * server (the harness's sink), as a user reads their inbox.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { E2E_PASSWORD, loginThroughPage, registerThroughPages } from "./account-flows.ts";
import {
  type Browser,
  hydrated,
  launchBrowser,
  newPage,
  type Page,
  type RunningServer,
  startServer,
} from "./harness.ts";

/** A page with generous timeouts: the shared test machine can be very busy. */
async function open(browser: Browser, options: Parameters<typeof newPage>[1] = {}): Promise<Page> {
  const page = await newPage(browser, options);
  page.setDefaultNavigationTimeout(90_000);
  page.setDefaultTimeout(45_000);
  return page;
}

/** The demo credentials the server prints once on its first start. */
function demoCredentials(output: string, who: "demo trader" | "administrator") {
  const m = new RegExp(`${who}:\\s+(\\S+@[\\w.]+)\\s+password: ([A-Za-z0-9]+)`).exec(output);
  if (m?.[1] === undefined || m[2] === undefined) throw new Error(`no ${who} credentials in the log`);
  return { email: m[1], password: m[2] };
}

async function api<T>(
  page: Page,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
): Promise<{ code: string; data: T }> {
  return page.evaluate(
    async ([m, p, b]) => {
      const res = await fetch(p, {
        method: m,
        headers: b === undefined ? {} : { "content-type": "application/json" },
        ...(b === undefined ? {} : { body: JSON.stringify(b) }),
      });
      return (await res.json()) as { code: string; data: T };
    },
    [method, path, body] as const,
  );
}

/** Clicks a send-code button and returns the code mailed to `to` by it. */
async function sendAndRead(page: Page, server: RunningServer, testId: string, to: string): Promise<string> {
  const before = server.mail.to(to).length;
  await page.getByTestId(`${testId}-send`).click();
  await page.getByTestId(`${testId}-sent`).waitFor();
  return server.mail.code(to, before);
}

interface Target {
  name: string;
  env: Record<string, string>;
  cleanup: () => Promise<void>;
}

async function targets(): Promise<Target[]> {
  const list: Target[] = [{ name: "sqlite", env: {}, cleanup: async () => {} }];
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const schema = `acctcentre_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    const u = new URL(url);
    u.searchParams.set("options", `-c search_path=${schema}`);
    list.push({
      name: "postgres",
      env: { DATABASE_URL: u.toString() },
      cleanup: async () => {
        await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
        await admin.end();
      },
    });
  }
  return list;
}

const all = await targets();

for (const target of all) {
  describe(`account centre (${target.name})`, () => {
    let server: RunningServer;
    let browser: Browser;
    const email = `centre${Date.now()}@example.com`;
    beforeAll(async () => {
      [server, browser] = await Promise.all([
        startServer({ env: target.env, readyTimeoutMs: 120_000 }),
        launchBrowser(),
      ]);
    }, 150_000);
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await target.cleanup();
    });

    test("the seeded demo trader logs in; the password resets by e-mail code", async () => {
      const trader = demoCredentials(server.output(), "demo trader");
      const admin = demoCredentials(server.output(), "administrator");
      expect(trader.email).toBe("demo@meridian.example");
      expect(admin.password).not.toBe(trader.password);
      const page = await open(browser);
      await loginThroughPage(page, server.url, trader);
      expect(await page.getByTestId("account-overview").textContent()).toContain(trader.email);

      const reset = await open(browser);
      await reset.goto(`${server.url}/login`);
      await reset.waitForLoadState("networkidle");
      await reset.getByTestId("login-forgot").click();
      await reset.waitForURL(/\/forgot-password$/);
      await reset.waitForLoadState("networkidle");
      await reset.getByTestId("reset-account").fill(trader.email);
      const code = await sendAndRead(reset, server, "reset-code", trader.email);
      await reset.getByTestId("reset-code-input").fill(code);
      await reset.getByTestId("reset-password").fill("demo-reset-password-1");
      await reset.getByTestId("reset-password-again").fill("demo-reset-password-1");
      await reset.getByTestId("reset-submit").click();
      await reset.getByTestId("reset-done").waitFor();
      // Every session ended, the notice mailed.
      expect((await api(page, "POST", "/v1/user/overview/userinfo")).code).toBe("00004");
      await server.mail.next(trader.email, (m) => m.subject === "Your Meridian password was changed");
      await loginThroughPage(reset, server.url, { email: trader.email, password: "demo-reset-password-1" });
    });

    test("security pages: password change, anti-phishing, devices, history, e-mail change, API keys", async () => {
      const page = await open(browser);
      await registerThroughPages(page, server.url, email);

      // A second browser logs in: a new device, so a notice is mailed.
      const other = await open(browser, { locale: "de-DE" });
      await loginThroughPage(other, server.url, { email, password: E2E_PASSWORD });
      await server.mail.next(email, (m) => m.subject === "New login to your Meridian account");

      // The security page links to every setting.
      await page.goto(`${server.url}/account/security`);
      await page.waitForLoadState("networkidle");
      for (const key of ["antiPhishing", "verification", "devices", "history", "api"])
        expect(await page.getByTestId(`security-nav-${key}`).count()).toBe(1);

      // Anti-phishing code, with a code to the bound e-mail.
      await page.getByTestId("security-nav-antiPhishing").click();
      await page.waitForURL(/\/subaccount\/setting\/antiphishing$/);
      await page.waitForLoadState("networkidle");
      await page.getByTestId("anti-phishing-code").fill("Falcon42");
      const apCode = await sendAndRead(page, server, "anti-phishing-verify", email);
      await page.getByTestId("anti-phishing-verify-input").fill(apCode);
      await page.getByTestId("anti-phishing-submit").click();
      await page.getByTestId("anti-phishing-saved").waitFor();
      await expect.poll(() => page.getByTestId("anti-phishing-current").textContent()).toContain("Falcon42");
      const apNotice = await server.mail.next(email, (m) =>
        m.text.includes("anti-phishing code was changed"),
      );
      expect(apNotice.html).toContain("Anti-phishing code: Falcon42");

      // Devices: this one marked; the other logged out from here.
      await page.goto(`${server.url}/subaccount/setting/devices`);
      await page.waitForLoadState("networkidle");
      await expect.poll(() => page.getByTestId("device-row").count()).toBe(2);
      expect(await page.locator('[data-testid="device-row"][data-current="true"]').textContent()).toContain(
        "This device",
      );
      // The second browser was new to the account: it was let in by the mailed code.
      expect(
        await page
          .locator('[data-testid="device-row"][data-current="false"]')
          .getByTestId("device-verified-by")
          .textContent(),
      ).toBe("First login confirmed with: E-mail code");
      await page
        .locator('[data-testid="device-row"][data-current="false"]')
        .getByTestId("device-revoke")
        .click();
      await page.getByTestId("devices-notice").waitFor();
      expect((await api(other, "POST", "/v1/user/overview/userinfo")).code).toBe("00004");

      // A failed login shows in the history with its reason.
      await other.goto(`${server.url}/login`);
      await other.waitForLoadState("networkidle");
      await other.getByTestId("login-name").fill(email);
      await other.getByTestId("login-password").fill("not-the-password");
      await other.getByTestId("login-submit").click();
      await other.getByTestId("login-error").waitFor();
      await page.goto(`${server.url}/subaccount/setting/history`);
      await page.waitForLoadState("networkidle");
      await expect
        .poll(() => page.getByTestId("history-table").textContent(), { timeout: 30_000 })
        .toContain("Wrong password");
      expect(await page.getByTestId("history-table").textContent()).toContain("Success");
      expect(await page.getByTestId("history-new-device").count()).toBe(1);
      expect(await page.getByTestId("history-verified-by").first().textContent()).toBe("E-mail code");

      // Password change: the other sessions end and a notice is mailed.
      await loginThroughPage(other, server.url, { email, password: E2E_PASSWORD });
      await page.goto(`${server.url}/account/security`);
      await page.waitForLoadState("networkidle");
      await page.getByTestId("password-current").fill(E2E_PASSWORD);
      await page.getByTestId("password-new").fill("changed-password-456");
      await page.getByTestId("password-again").fill("changed-password-456");
      await page.getByTestId("password-submit").click();
      await page.getByTestId("password-changed").waitFor();
      expect((await api(other, "POST", "/v1/user/overview/userinfo")).code).toBe("00004");
      expect((await api(page, "POST", "/v1/user/overview/userinfo")).code).toBe("00000");
      const pwNotice = await server.mail.next(
        email,
        (m) => m.subject === "Your Meridian password was changed",
      );
      expect(pwNotice.text).toContain("Anti-phishing code: Falcon42");

      // E-mail change: a code to the old address and one to the new.
      const next = `moved${Date.now()}@example.com`;
      await page.goto(`${server.url}/modifyverification`);
      await page.waitForLoadState("networkidle");
      await page.getByTestId("verification-new-email").fill(next);
      const oldCode = await sendAndRead(page, server, "verification-email-old", email);
      await page.getByTestId("verification-email-old-input").fill(oldCode);
      const newCode = await sendAndRead(page, server, "verification-email-new", next);
      await page.getByTestId("verification-email-new-input").fill(newCode);
      await page.getByTestId("verification-email-submit").click();
      await page.getByTestId("verification-email-saved").waitFor();
      await expect.poll(() => page.getByTestId("verification-email-current").textContent()).toContain(next);

      // API keys: the account's keys (none yet) and the way to their management.
      await page.goto(`${server.url}/subaccount/setting/api`);
      await page.waitForLoadState("networkidle");
      await page.getByTestId("api-keys-table").waitFor();
      expect(await page.getByTestId("api-keys-manage").getAttribute("href")).toBe("/account/newapi");
      // Six pages' flows in one journey: about 35 s quiet, past 120 s at load 30.
    }, 240_000);

    test("the phone number changes through /modifyverification: a code to the e-mail, one by SMS", async () => {
      const page = await open(browser);
      const address = `phone${Date.now()}@example.com`;
      await registerThroughPages(page, server.url, address);
      type Info = { settings: { bindPhone: boolean }; userInfo: { phone?: string; areaCode?: string } };
      const before = await api<Info>(page, "POST", "/v1/user/overview/userinfo");
      expect(before.data.settings.bindPhone).toBe(false);

      await page.goto(`${server.url}/modifyverification`);
      await page.waitForLoadState("networkidle");
      await page.getByRole("tab", { name: "Phone" }).click();
      expect(await page.getByTestId("verification-phone-current").textContent()).not.toMatch(/\d{6}/);
      const mobile = `7700${String(Date.now()).slice(-6)}`;
      await page.getByTestId("verification-area-code").fill("44");
      await page.getByTestId("verification-new-phone").fill(mobile);
      // The current contact is the e-mail: its code comes by mail.
      const oldCode = await sendAndRead(page, server, "verification-phone-old", address);
      await page.getByTestId("verification-phone-old-input").fill(oldCode);
      // SMS has no gateway: the message goes to the server's log, read from there.
      await page.getByTestId("verification-phone-new-send").click();
      await page.getByTestId("verification-phone-new-sent").waitFor();
      const sms = new RegExp(`SMS to \\+44${mobile}[^]*?verification code is (\\d{6})`);
      let smsCode: string | undefined;
      await expect
        .poll(() => {
          smsCode = sms.exec(server.output())?.[1];
          return smsCode;
        })
        .toMatch(/^\d{6}$/);
      await page.getByTestId("verification-phone-new-input").fill(smsCode ?? "");
      await page.getByTestId("verification-phone-submit").click();
      await page.getByTestId("verification-phone-saved").waitFor();
      await expect
        .poll(() => page.getByTestId("verification-phone-current").textContent())
        .toContain(mobile.slice(-4));
      const after = await api<Info>(page, "POST", "/v1/user/overview/userinfo");
      expect(after.data.settings.bindPhone).toBe(true);
      expect(JSON.stringify(after.data.userInfo)).toContain(mobile.slice(-4));
      // The change is announced to the account's e-mail.
      await server.mail.next(address, (m) => m.text.toLowerCase().includes("phone"));
    });

    test("pages in Arabic, right to left, ask a visitor to log in", async () => {
      const page = await open(browser, {
        locale: "ar",
        colorScheme: "dark",
        viewport: { width: 390, height: 844 },
      });
      for (const path of [
        "/subaccount/setting/devices",
        "/modifyverification",
        "/subaccount/setting/history",
      ]) {
        await page.goto(`${server.url}/ar${path}`);
        await page.waitForLoadState("networkidle");
        expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
        expect(await page.getByTestId("security-nav").textContent()).toContain("سجل تسجيل الدخول");
        expect(await page.getByRole("link", { name: "تسجيل الدخول" }).count()).toBeGreaterThan(0);
      }
    });
  });
}

describe("a fresh start without SMTP", () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ smtp: false, readyTimeoutMs: 120_000 }),
      launchBrowser(),
    ]);
  }, 150_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  test("a visitor signs up with the code the server wrote to its log", async () => {
    const page = await open(browser);
    const address = `fromlog${Date.now()}@example.com`;
    await page.goto(`${server.url}/register?account=${encodeURIComponent(address)}`);
    await page.waitForLoadState("networkidle");
    await expect
      .poll(() => page.getByTestId("register-email").inputValue(), { timeout: 15_000 })
      .toBe(address);
    await page.getByTestId("register-send-code").click();
    const pattern = new RegExp(
      `E-mail to ${address.replace(/[.]/g, "\\.")}[^]*?verification code is (\\d{6})`,
    );
    let code: string | undefined;
    await expect
      .poll(() => {
        code = pattern.exec(server.output())?.[1];
        return code;
      })
      .toMatch(/^\d{6}$/);
    await page.getByTestId("register-code").fill(code ?? "");
    await page.getByTestId("register-password").fill(E2E_PASSWORD);
    await page.getByTestId("register-password-again").fill(E2E_PASSWORD);
    await page.getByTestId("register-submit").click();
    await page.waitForURL(/\/account\/overview$/);

    // Another browser is a device new to the account: the login asks for the code the
    // server wrote to its log, as a fresh `npm start` does for the demo accounts.
    const other = await open(browser);
    await other.goto(`${server.url}/login`);
    await hydrated(other, "login-name");
    await other.getByTestId("login-name").fill(address);
    await other.getByTestId("login-password").fill(E2E_PASSWORD);
    await other.getByTestId("login-submit").click();
    await other.getByTestId("login-code").waitFor();
    expect(await other.getByTestId("login-verify-form").textContent()).toContain(
      "This browser has not logged in to your account before.",
    );
    let loginCode: string | undefined;
    await expect
      .poll(() => {
        // The newest code to the address: not the sign-up's any more.
        const newest = [...server.output().matchAll(new RegExp(pattern, "g"))].at(-1)?.[1];
        loginCode = newest === code ? undefined : newest;
        return loginCode;
      })
      .toMatch(/^\d{6}$/);
    await other.getByTestId("login-code").fill(loginCode ?? "");
    await other.getByTestId("login-verify-submit").click();
    await other.waitForURL(/\/account\/overview$/);
    expect(server.mail.messages).toHaveLength(0);
    // The outbox page that once showed every user's codes is gone.
    expect((await page.request.get(`${server.url}/v1/dev/outbox`)).status()).toBe(404);
  });
});
