import { execFileSync } from "node:child_process";
import { SESSION_COOKIE } from "@meridian/contracts";
import { expect } from "vitest";
import { hydrated, mailOf, type Page, repoRoot } from "./harness.ts";

/** The password every browser test registers with. */
export const E2E_PASSWORD = "e2e-password-123";

/**
 * The newest verification code mailed to `recipient` by the server at `serverUrl`, read
 * from the SMTP sink the harness gave it (waits up to 10 s). `after`: only messages after
 * that many (take `mailOf(url).to(addr).length` before the request that sends the code).
 */
export async function outboxCode(
  _page: Page,
  serverUrl: string,
  recipient: string,
  after = 0,
): Promise<string> {
  return mailOf(serverUrl).code(recipient, after);
}

/** Registers `email` through the register page (prefill, mailed code) and waits for the account overview. */
export async function registerThroughPages(page: Page, serverUrl: string, email: string): Promise<void> {
  await page.goto(`${serverUrl}/register?account=${encodeURIComponent(email)}`);
  await hydrated(page, "register-email");
  await expect.poll(() => page.getByTestId("register-email").inputValue(), { timeout: 15_000 }).toBe(email);
  await page.getByTestId("register-send-code").click();
  await page.getByTestId("register-code").fill(await outboxCode(page, serverUrl, email));
  await page.getByTestId("register-password").fill(E2E_PASSWORD);
  await page.getByTestId("register-password-again").fill(E2E_PASSWORD);
  await page.getByTestId("register-submit").click();
  await page.waitForURL(/\/account\/overview$/);
}

/** `npm run admin:create` on a test server's data directory (its SQLite database). */
export function createAdmin(dataDir: string, email: string, password: string): void {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  execFileSync(
    process.execPath,
    ["apps/server/src/modules/accounts/admin-create.ts", "--email", email, "--password", password],
    { cwd: repoRoot, env, stdio: "pipe" },
  );
}

/**
 * Presses the login form's submit (name and password filled) and, when the server asks
 * this browser for the e-mail code because the account never logged in from it (a new
 * browser context is a new device), types the code mailed to `email` and verifies: the
 * whole password journey of a user reading their inbox. Any other second step (an
 * authenticator, a passkey) is left on the page for the test.
 */
export async function submitLogin(page: Page, serverUrl: string, email: string): Promise<void> {
  const mail = mailOf(serverUrl);
  const before = mail.to(email).length;
  await page.getByTestId("login-submit").click();
  // Either the page leaves the login form (logged in) or it shows a second step. (The
  // answer's body cannot be read: a successful login navigates away and Chromium drops it.)
  const asked = page
    .getByTestId("login-verify-form")
    .waitFor()
    .then(
      () => true,
      () => false,
    );
  const left = page
    .waitForURL((url) => !url.pathname.endsWith("/login"))
    .then(
      () => false,
      () => false,
    );
  if (!(await Promise.race([asked, left]))) return;
  // The new-device step mailed a code before answering; an authenticator's or passkey's
  // step mails nothing and is left to the test.
  if (mail.to(email).length === before || (await page.getByTestId("login-code").count()) === 0) return;
  await page.getByTestId("login-code").fill(await mail.code(email, before));
  await page.getByTestId("login-verify-submit").click();
}

/**
 * Logs in through the login page (answering the new-device e-mail code when asked, see
 * `submitLogin`): with `redirect`, lands there (`/login?redirect=`), else on the account
 * overview.
 */
export async function loginThroughPage(
  page: Page,
  serverUrl: string,
  credentials: { email: string; password: string },
  redirect?: string,
): Promise<void> {
  await page.goto(
    `${serverUrl}/login${redirect === undefined ? "" : `?redirect=${encodeURIComponent(redirect)}`}`,
  );
  await hydrated(page, "login-name");
  await page.getByTestId("login-name").fill(credentials.email);
  await page.getByTestId("login-password").fill(credentials.password);
  await submitLogin(page, serverUrl, credentials.email);
  if (redirect === undefined) await page.waitForURL(/\/account\/overview$/);
  else await page.waitForURL(`${serverUrl}${redirect}`);
}

/**
 * A session cookie (`mer_token=...`) from a plain JSON login outside the browser (test
 * servers allow unencrypted logins), answering the new-device e-mail code from the mail as
 * `submitLogin` does: a session without a device key, for setup calls from the test.
 */
export async function apiLogin(serverUrl: string, email: string, password: string): Promise<string> {
  const mail = mailOf(serverUrl);
  const before = mail.to(email).length;
  const post = (path: string, body: unknown) =>
    fetch(`${serverUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: serverUrl },
      body: JSON.stringify(body),
    });
  let res = await post("/v1/user/login", { loginName: email, pwd: password });
  const first = (await res.clone().json()) as {
    data?: { verifyRequired?: boolean; newDevice?: boolean; verifyToken?: string };
  };
  if (first.data?.verifyRequired === true && first.data.newDevice === true) {
    const emailCode = await mail.code(email, before);
    res = await post("/v1/user/login/verify-login", { verifyToken: first.data.verifyToken, emailCode });
  }
  const line = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (line === undefined) throw new Error(`plain login refused: ${await res.text()}`);
  return line.split(";")[0] ?? "";
}

/** The trimmed text of the first element with `testId`. */
export const textOf = async (page: Page, testId: string) =>
  ((await page.getByTestId(testId).first().textContent()) ?? "").trim();

/** A paper call from inside the page (same origin, its session cookie, the paper header). */
export async function paper<T>(page: Page, method: "GET" | "POST", path: string, data?: unknown): Promise<T> {
  const body = await page.evaluate(
    async ({ method, path, data }) => {
      const res = await fetch(path, {
        method,
        credentials: "same-origin",
        headers: { paptrading: "1", "content-type": "application/json", accept: "application/json" },
        ...(data === undefined ? {} : { body: JSON.stringify(data) }),
      });
      return (await res.json()) as { code: string; data: unknown; msg: string };
    },
    { method, path, data },
  );
  if (body.code !== "00000" && body.code !== "200") throw new Error(`${path}: ${body.code} ${body.msg}`);
  return body.data as T;
}
