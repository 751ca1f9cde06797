/**
 * Passkeys in Chromium with its virtual authenticator (DevTools protocol `WebAuthn.*`): two
 * named passkeys made on the security page, one removed after a step-up; signing in with a passkey alone
 * and as the step after the password; a cloned passkey whose signature counter went
 * backwards is refused. The pages run on `localhost`, the relying party the server derives
 * from its public host (here its listen address).
 */
import type { CDPSession } from "playwright-core";
import { describe, expect, test } from "vitest";
import { E2E_PASSWORD, textOf } from "./account-flows.ts";
import { hydrated, type NewPageOptions, newPage, type Page, serverAndBrowser } from "./harness.ts";

const run = serverAndBrowser();
const EMAIL = `passkey${Date.now()}@example.com`;
/** Refused passkeys answer 400; a change before its step-up answers 403 (the page then confirms). */
const allowErrors = ["get user info error", "hydrated but some attributes", /status of 40[03]/];
const site = () => run.server.url.replace("127.0.0.1", "localhost");

interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
}

/** A page with a virtual authenticator (user present and verified), holding `credential` if given. */
async function withAuthenticator(
  options: NewPageOptions,
  credential?: VirtualCredential,
): Promise<{ page: Page; cdp: CDPSession; authenticatorId: string }> {
  const page = await newPage(run.browser, { allowErrors, ...options });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  if (credential !== undefined) await cdp.send("WebAuthn.addCredential", { authenticatorId, credential });
  return { page, cdp, authenticatorId };
}

/** Sign-up through the register page on `localhost` (the mail sink is the server's). */
async function register(page: Page): Promise<void> {
  await page.goto(`${site()}/register?account=${encodeURIComponent(EMAIL)}`);
  await hydrated(page, "register-email");
  await expect.poll(() => page.getByTestId("register-email").inputValue(), { timeout: 15_000 }).toBe(EMAIL);
  await page.getByTestId("register-send-code").click();
  await page.getByTestId("register-code").fill(await run.server.mail.code(EMAIL));
  await page.getByTestId("register-password").fill(E2E_PASSWORD);
  await page.getByTestId("register-password-again").fill(E2E_PASSWORD);
  await page.getByTestId("register-submit").click();
  await page.waitForURL(/\/account\/overview$/);
}

async function addPasskeyOnPage(page: Page, name: string): Promise<void> {
  await page.getByTestId("passkey-name-input").fill(name);
  await page.getByTestId("passkey-add").click();
  await expect.poll(() => page.getByTestId("passkey-name").allTextContents()).toContain(name);
}

async function credentialsOf(cdp: CDPSession, authenticatorId: string): Promise<VirtualCredential[]> {
  return (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials;
}

describe("passkeys", () => {
  let laptop: VirtualCredential | undefined;

  test("two named passkeys are made on the security page, listed, and one removed", async () => {
    const first = await withAuthenticator({});
    const { page, cdp } = first;
    await register(page);
    await page.goto(`${site()}/account/security`);
    await hydrated(page, "passkey-add");
    await addPasskeyOnPage(page, "Laptop");
    [laptop] = await credentialsOf(cdp, first.authenticatorId);
    expect(laptop?.isResidentCredential).toBe(true);
    // A second device: another authenticator.
    await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: first.authenticatorId });
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await addPasskeyOnPage(page, "Phone");
    expect(await page.getByTestId("passkey-name").allTextContents()).toEqual(["Laptop", "Phone"]);
    // Removing a factor asks for a step-up: the page confirms with a passkey, then removes.
    const steppedUp = page.waitForResponse((r) => r.url().endsWith("/v1/user/security/stepUp"));
    await page.getByTestId("passkey-remove").nth(1).click();
    expect(await (await steppedUp).json()).toMatchObject({ code: "00000" });
    await expect.poll(() => page.getByTestId("passkey-name").allTextContents()).toEqual(["Laptop"]);
    expect(await textOf(page, "passkeys-notice")).toBe("Passkey removed.");
  });

  test("signs in with the passkey alone, in Arabic on a phone", async () => {
    if (laptop === undefined) throw new Error("no passkey from the first test");
    const { page } = await withAuthenticator(
      { locale: "ar", colorScheme: "dark", viewport: { width: 390, height: 844 } },
      laptop,
    );
    await page.goto(`${site()}/ar/login`);
    await hydrated(page, "login-passkey");
    await page.getByTestId("login-passkey").click();
    await page.waitForURL(/\/account\/overview$/);
    await expect.poll(() => page.locator("header.shell-header").textContent()).toContain(EMAIL);
  });

  test("a clone whose counter went backwards is refused; the passkey then works as the second step", async () => {
    if (laptop === undefined) throw new Error("no passkey from the first test");
    // The credential as it was right after registering: its counter is behind the server's.
    const clone = await withAuthenticator({}, laptop);
    await clone.page.goto(`${site()}/login`);
    await hydrated(clone.page, "login-passkey");
    await clone.page.getByTestId("login-passkey").click();
    await expect.poll(() => textOf(clone.page, "login-error")).toBe("The passkey was not accepted.");
    expect(clone.page.url()).toMatch(/\/login$/);

    const ahead = await withAuthenticator({}, { ...laptop, signCount: 1000 });
    const { page } = ahead;
    await page.goto(`${site()}/login`);
    await hydrated(page, "login-name");
    await page.getByTestId("login-name").fill(EMAIL);
    await page.getByTestId("login-password").fill(E2E_PASSWORD);
    await page.getByTestId("login-submit").click();
    await page.getByTestId("login-verify-passkey").click();
    await page.waitForURL(/\/account\/overview$/);

    await page.goto(`${site()}/subaccount/setting/history`);
    await expect
      .poll(() => page.getByTestId("history-table").textContent(), { timeout: 15_000 })
      .toContain("Wrong verification code");
  });

  test("a forgotten password is reset with the passkey as the second factor", async () => {
    if (laptop === undefined) throw new Error("no passkey from the first test");
    // Ahead of every counter the server has seen from this credential.
    const { page } = await withAuthenticator({}, { ...laptop, signCount: 5000 });
    await page.goto(`${site()}/forgot-password`);
    await hydrated(page, "reset-account");
    await page.getByTestId("reset-account").fill(EMAIL);
    const before = run.server.mail.to(EMAIL).length;
    await page.getByTestId("reset-code-send").click();
    await page.getByTestId("reset-code-input").fill(await run.server.mail.code(EMAIL, before));
    await page.getByTestId("reset-password").fill("passkey-reset-password-1");
    await page.getByTestId("reset-password-again").fill("passkey-reset-password-1");
    // Submitted without a factor: the server asks for the passkey, the page gets it and repeats.
    const withPasskey = page.waitForRequest(
      (r) =>
        r.url().endsWith("/v1/user/public/password/reset") && (r.postData() ?? "").includes("fidoVerifyCode"),
    );
    await page.getByTestId("reset-submit").click();
    await withPasskey;
    await page.getByTestId("reset-done").waitFor();
    await run.server.mail.next(EMAIL, (m) => m.subject === "Your Meridian password was changed");

    // The new password, then the passkey as the login's second step.
    await page.goto(`${site()}/login`);
    await hydrated(page, "login-name");
    await page.getByTestId("login-name").fill(EMAIL);
    await page.getByTestId("login-password").fill("passkey-reset-password-1");
    await page.getByTestId("login-submit").click();
    await page.getByTestId("login-verify-passkey").click();
    await page.waitForURL(/\/account\/overview$/);
  });
});
