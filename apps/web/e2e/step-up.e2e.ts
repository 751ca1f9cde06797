/**
 * The step-up for an authenticator user in Chromium: a transfer to a sub-account from a
 * session that proved no factor lately opens the "Confirm it's you" dialog; a wrong code is
 * refused and moves nothing, the next right code completes the transfer.
 */
import { describe, expect, test } from "vitest";
import { totp } from "../../server/src/modules/accounts/totp.ts";
import { registerThroughPages, textOf } from "./account-flows.ts";
import { hydrated, newPage, serverAndBrowser } from "./harness.ts";

const run = serverAndBrowser({ readyTimeoutMs: 120_000 }, { timeout: 240_000 });
/** A transfer before its step-up answers 403; a wrong code 200 with 11006. */
const allowErrors = ["get user info error", "hydrated but some attributes", /status of 403/];

describe("step-up", () => {
  test("a transfer asks for the authenticator code, then goes through", async () => {
    const page = await newPage(run.browser, { allowErrors });
    await registerThroughPages(page, run.server.url, `stepup${Date.now()}@example.com`);
    await page.goto(`${run.server.url}/account/security`);
    await hydrated(page, "tfa-start");
    await page.getByTestId("tfa-start").click();
    const secret = (await textOf(page, "tfa-secret")).trim();
    const bindAt = Date.now();
    await page.getByTestId("tfa-code").fill(totp(secret, bindAt));
    await page.getByTestId("tfa-bind").click();
    await page.getByTestId("tfa-enabled").waitFor();

    await page.context().addInitScript(() => localStorage.setItem("skipGuide", "1"));
    await page.goto(`${run.server.url}/subaccount/manage`);
    await hydrated(page, "sub-create");
    await page.getByTestId("sub-name").fill("stepup1");
    await page.getByTestId("sub-label").fill("Desk");
    await page.getByTestId("sub-create").click();
    const card = page.getByTestId("sub-card");
    await card.waitFor({ timeout: 15_000 });
    await card.getByTestId("sub-transfer").click();
    await page.getByTestId("sub-transfer-amount").fill("1000");
    await page.getByTestId("sub-transfer-submit").click();

    const dialog = page.getByTestId("step-up-dialog");
    await dialog.waitFor();
    await page.getByTestId("step-up-code").fill("000000");
    await page.getByTestId("step-up-submit").click();
    await expect.poll(() => textOf(page, "sub-transfer-error")).toContain("11006");
    expect(await textOf(page, "sub-total")).toBe("0.00 USDT");

    // Again, with the code of the step after the bind's (each works once).
    await page.getByTestId("sub-transfer-submit").click();
    await dialog.waitFor();
    await page.getByTestId("step-up-code").fill(totp(secret, bindAt + 30_000));
    await page.getByTestId("step-up-submit").click();
    await expect.poll(() => textOf(page, "sub-total"), { timeout: 30_000 }).toBe("1,000.00 USDT");
  });
});
