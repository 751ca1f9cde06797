/**
 * QR login with two browser contexts: a desktop on the login page shows "Log in with the
 * app"; a phone (logged in, phone viewport) opens the code's link, sees which browser
 * asked and from where, and confirms; the desktop ends up logged in as the phone's user.
 * A second code rejected on the phone leaves the desktop logged out; a logged-out phone
 * goes through the login page (in Arabic) and back to the code.
 */
import { expect, test } from "vitest";
import { E2E_PASSWORD, registerThroughPages, submitLogin } from "./account-flows.ts";
import { hydrated, newPage, type Page, serverAndBrowser } from "./harness.ts";

const run = serverAndBrowser();
// The login page reads the session first (none: logged); a refused poll or decision answers 4xx.
const allowErrors = ["get user info error", /status of 40[0-9]/];
const PHONE = { width: 390, height: 844 };

/** The desktop's login page switched to the QR code: the link the code holds. */
async function showCode(desktop: Page): Promise<string> {
  await desktop.goto(`${run.server.url}/login`);
  await hydrated(desktop, "login-qr");
  await desktop.getByTestId("login-qr").click();
  const panel = desktop.getByTestId("qr-login");
  await expect.poll(() => panel.getAttribute("data-link"), { timeout: 15_000 }).toMatch(/#token=/);
  await expect(panel.locator("svg").count()).resolves.toBeGreaterThan(0);
  return (await panel.getAttribute("data-link")) ?? "";
}

test("a logged-in phone confirms the desktop's QR code and the desktop is logged in", async () => {
  const email = `qr${Date.now()}@example.com`;
  const phone = await newPage(run.browser, { viewport: PHONE, allowErrors });
  await registerThroughPages(phone, run.server.url, email);
  const desktop = await newPage(run.browser, { allowErrors });

  const link = await showCode(desktop);
  expect(link.startsWith(`${run.server.url}/qr-login#token=`)).toBe(true);
  await phone.goto(link);
  await hydrated(phone, "qr-confirm-accept");
  await expect.poll(() => phone.getByTestId("qr-confirm-browser").textContent()).toMatch(/Chrom/);
  await expect.poll(() => phone.getByTestId("qr-confirm-ip").textContent()).toBe("127.0.0.*");
  await expect
    .poll(() => desktop.getByTestId("qr-login").getAttribute("data-status"), { timeout: 15_000 })
    .toBe("scanned");
  await phone.getByTestId("qr-confirm-accept").click();
  await phone.getByTestId("qr-confirm-confirmed").waitFor();

  await desktop.waitForURL(/\/account\/overview$/, { timeout: 30_000 });
  await expect.poll(() => desktop.getByText(email).count(), { timeout: 15_000 }).toBeGreaterThan(0);

  // The same link opened again (a reload: only the fragment names the token): spent.
  await phone.reload();
  await phone.getByTestId("qr-confirm-error").waitFor();
});

test("a rejected code leaves the desktop logged out", async () => {
  const email = `qrno${Date.now()}@example.com`;
  const phone = await newPage(run.browser, { viewport: PHONE, allowErrors, colorScheme: "dark" });
  await registerThroughPages(phone, run.server.url, email);
  const desktop = await newPage(run.browser, { allowErrors });
  const link = await showCode(desktop);
  await phone.goto(link);
  await hydrated(phone, "qr-confirm-reject");
  await phone.getByTestId("qr-confirm-reject").click();
  await phone.getByTestId("qr-confirm-rejected").waitFor();
  await expect
    .poll(() => desktop.getByTestId("qr-login").getAttribute("data-status"), { timeout: 15_000 })
    .toBe("rejected");
  await desktop.getByTestId("qr-login-renew").waitFor();
  expect(desktop.url()).toMatch(/\/login$/);
});

test("a logged-out phone logs in first, comes back to the code and confirms it", async () => {
  const email = `qrout${Date.now()}@example.com`;
  const signup = await newPage(run.browser, { allowErrors });
  await registerThroughPages(signup, run.server.url, email);
  const desktop = await newPage(run.browser, { allowErrors });
  const link = await showCode(desktop);

  const phone = await newPage(run.browser, { viewport: PHONE, allowErrors, locale: "ar" });
  await phone.goto(link.replace("/qr-login", "/ar/qr-login"));
  // The "please log in" prompt's link carries the code's page (fragment included) as ?redirect=.
  await phone.locator(".ant-result a").click();
  await hydrated(phone, "login-name");
  await phone.getByTestId("login-name").fill(email);
  await phone.getByTestId("login-password").fill(E2E_PASSWORD);
  await submitLogin(phone, run.server.url, email);
  await hydrated(phone, "qr-confirm-accept");
  expect(phone.url()).toMatch(/\/ar\/qr-login#token=/);
  await phone.getByTestId("qr-confirm-accept").click();
  await phone.getByTestId("qr-confirm-confirmed").waitFor();
  await desktop.waitForURL(/\/account\/overview$/, { timeout: 30_000 });
});
