/**
 * Third-party sign-in in Chromium against the real server: an OpenID provider
 * (`oidc-provider`) runs in this process; the login page's "Continue with Test ID" runs
 * the authorization code flow with PKCE through it and back to `/third-login/idp`, where a
 * new identity creates an account or links one with its password; the security page lists
 * it. Telegram's data is signed here with the test bot's token and opened as the widget's
 * redirect would. Light, dark and Arabic pages are captured for a look.
 */
import crypto from "node:crypto";
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startOidcProvider, type TestOidcProvider } from "../../server/src/test/oidc-provider.ts";
import { E2E_PASSWORD, registerThroughPages } from "./account-flows.ts";
import {
  type Browser,
  hydrated,
  launchBrowser,
  newPage,
  type Page,
  type RunningServer,
  startServer,
} from "./harness.ts";

const BOT_TOKEN = "123456789:e2e-bot-token-AAAAAAAAAAAAAAAAAAAAAA";

// The provider first (the server's settings name its issuer), then the server and the
// browser; the provider learns the server's callback address once it listens.
let idp: TestOidcProvider;
let server: RunningServer | undefined;
let browser: Browser | undefined;
const run = {
  get server(): RunningServer {
    if (server === undefined) throw new Error("the server starts in beforeAll");
    return server;
  },
  get browser(): Browser {
    if (browser === undefined) throw new Error("the browser starts in beforeAll");
    return browser;
  },
};
beforeAll(async () => {
  idp = await startOidcProvider();
  [server, browser] = await Promise.all([
    startServer({
      env: {
        OIDC_PROVIDERS: idp.envValue("idp", "Test ID"),
        TELEGRAM_BOT_TOKEN: BOT_TOKEN,
        TELEGRAM_BOT_NAME: "meridian_e2e_bot",
      },
    }),
    launchBrowser(),
  ]);
  idp.setRedirectUris([`${server.url}/third-login/idp`]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await idp?.stop();
});

// The login page reads the session first (none yet); refused sign-ins answer 4xx.
const allowErrors = ["get user info error", /status of 40[0-9]/];

/** A page whose requests to telegram.org get an empty script: nothing leaves this machine. */
async function openPage(options: Parameters<typeof newPage>[1] = {}): Promise<Page> {
  const p = await newPage(run.browser, { allowErrors, ...options });
  await p.route("https://telegram.org/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/javascript", body: "" }),
  );
  return p;
}

const SHOTS = process.env.E2E_ARTIFACTS ?? join(tmpdir(), "meridian-e2e");

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `third-party-${name}.png`), fullPage: true });
}

/** From a login (or sign-up) page: the provider's button, the provider, back to the callback page. */
async function continueWithIdp(page: Page, path: string, subject: string): Promise<void> {
  idp.user.subject = subject;
  await page.goto(`${run.server.url}${path}`);
  await hydrated(page, "third-idp");
  await page.getByTestId("third-idp").click();
  await page.waitForURL(/\/third-login\/idp/, { timeout: 30_000 });
}

test("a new identity creates an account; the next sign-in logs it in; security lists it", async () => {
  const page = await openPage();
  await continueWithIdp(page, "/login", "erin");
  await page.getByTestId("third-ticket").waitFor();
  expect(await page.getByTestId("third-ticket-intro").textContent()).toContain("erin@idp.test");
  // The code and state left the address bar.
  expect(new URL(page.url()).search).toBe("");
  await shot(page, "ticket-light");
  await page.getByTestId("third-create").click();
  await page.waitForURL(/\/account\/overview$/, { timeout: 30_000 });
  await expect.poll(() => page.getByText("erin@idp.test").count(), { timeout: 15_000 }).toBeGreaterThan(0);

  // Another browser: the same identity logs straight in.
  const again = await openPage();
  // Started from a sign-up page with a return path: back there once signed in.
  await continueWithIdp(again, "/register?redirect=%2Faccount%2Fsecurity", "erin");
  await again.waitForURL(/\/account\/security$/, { timeout: 30_000 });
  await again.getByTestId("third-item").waitFor();
  expect(await again.getByTestId("third-display").textContent()).toBe("erin@idp.test");
  // Its only way in: unlinking is refused, and says why.
  await again.getByTestId("third-unbind").click();
  await again.getByTestId("third-unbind-error").waitFor();
  expect(await again.getByTestId("third-item").count()).toBe(1);
});

test("links a new identity to an existing account after its password (Arabic, dark)", async () => {
  const email = `frank${Date.now()}@example.com`;
  const owner = await openPage();
  await registerThroughPages(owner, run.server.url, email);

  const page = await openPage({
    locale: "ar",
    colorScheme: "dark",
    cookies: { url: run.server.url, values: { theme: "black" } },
  });
  await continueWithIdp(page, "/ar/login", "frank");
  // Started in Arabic: the callback page comes back in Arabic.
  await page.waitForURL(/\/ar\/third-login\/idp$/, { timeout: 30_000 });
  await hydrated(page, "third-link-name");
  expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
  await shot(page, "ticket-ar-dark");
  await page.getByTestId("third-link-name").fill(email);
  await page.getByTestId("third-link-password").fill("wrong-password-1");
  await page.getByTestId("third-link-submit").click();
  await page.getByTestId("third-link-error").waitFor();
  await page.getByTestId("third-link-password").fill(E2E_PASSWORD);
  await page.getByTestId("third-link-submit").click();
  await page.waitForURL(/\/ar\/account\/overview$/, { timeout: 30_000 });

  await owner.goto(`${run.server.url}/account/security`);
  await owner.getByTestId("third-item").waitFor();
  expect(await owner.getByTestId("third-display").textContent()).toBe("frank@idp.test");
  await shot(owner, "security-light");
  // With a password the link can go.
  await owner.getByTestId("third-unbind").click();
  await owner.getByTestId("third-notice").waitFor();
  expect(await owner.getByTestId("third-item").count()).toBe(0);
});

test("Telegram: the widget's signed data signs in; the same data again is refused", async () => {
  const fields: Record<string, string> = {
    id: String(Date.now() % 1_000_000_000),
    first_name: "Gina",
    username: "gina_e2e",
    auth_date: String(Math.floor(Date.now() / 1000)),
  };
  const check = Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join("\n");
  const key = crypto.createHash("sha256").update(BOT_TOKEN).digest();
  const hash = crypto.createHmac("sha256", key).update(check).digest("hex");
  const callback = `${run.server.url}/third-login/telegram?${new URLSearchParams({ ...fields, hash })}`;

  const page = await openPage({
    colorScheme: "dark",
    cookies: { url: run.server.url, values: { theme: "black" } },
  });
  // The login page offers the widget (its script comes from telegram.org: not loaded here).
  await page.goto(`${run.server.url}/login`);
  await page.getByTestId("third-telegram").waitFor();
  expect(await page.locator("html").getAttribute("class")).toContain("theme-black");
  await shot(page, "login-dark");
  await page.goto(callback);
  await page.getByTestId("third-ticket").waitFor();
  expect(await page.getByTestId("third-ticket-intro").textContent()).toContain("@gina_e2e");
  await page.getByTestId("third-create").click();
  await page.waitForURL(/\/account\/overview$/, { timeout: 30_000 });

  const replay = await openPage();
  await replay.goto(callback);
  await replay.getByTestId("third-error").waitFor();
  await shot(replay, "replayed-light");
});
