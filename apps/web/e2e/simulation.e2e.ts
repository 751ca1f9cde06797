/**
 * Simulation mode sticks (docs/product.md §4: the flag lives in local storage): a user in
 * simulation mode logs out and back in through the login page, and switches into a
 * sub-account, and stays in the mode each time; /asset shows the paper balances of the
 * account they are in, not the "enter simulation trading" gate.
 */
import { describe, expect, test } from "vitest";
import { E2E_PASSWORD, loginThroughPage, registerThroughPages, textOf } from "./account-flows.ts";
import { newPage, type Page, serverAndBrowser } from "./harness.ts";

const run = serverAndBrowser({ env: { DEV_OUTBOX: "true" } }, { timeout: 240_000 });

/** Logged-out pages log the spec's "get user info error"; the shell's nonce trips a hydration warning (see accounts.e2e.ts). */
const allowErrors = ["get user info error", "hydrated but some attributes"];

const flag = (page: Page) => page.evaluate(() => localStorage.getItem("simulation-trade"));

/** /asset in simulation mode: the paper overview with the spot account's total, no gate. */
async function expectPaperOverview(page: Page, spotTotal: RegExp): Promise<void> {
  await page.getByTestId("asset-overview").waitFor();
  const spot = page.getByTestId("account-link-spot");
  await spot.waitFor();
  expect(await page.getByTestId("assets-sim-prompt").count()).toBe(0);
  await expect.poll(async () => (await spot.textContent()) ?? "", { timeout: 15_000 }).toMatch(spotTotal);
}

describe("simulation mode", () => {
  test("sticks across logout and login, and across a sub-account switch", async () => {
    const page = await newPage(run.browser, { allowErrors });
    const email = `sticky${Date.now()}@example.com`;
    await registerThroughPages(page, run.server.url, email);
    await page.context().addInitScript(() => localStorage.setItem("skipGuide", "1"));
    await page.goto(`${run.server.url}/spot/BTCUSDT`);
    await page.getByTestId("enter-simulation").first().click();
    await page.getByTestId("simulation-badge").waitFor();
    expect(await flag(page)).toBe("1");

    // Log out from the header and back in through the login page: still on paper.
    await page.getByTestId("user-name").click();
    await page.getByTestId("logout").click();
    await page.getByTestId("user-name").waitFor({ state: "detached" });
    expect(await flag(page)).toBe("1");
    await loginThroughPage(page, run.server.url, { email, password: E2E_PASSWORD }, "/asset");
    expect(page.url()).toBe(`${run.server.url}/asset`);
    expect(await flag(page)).toBe("1");
    // 50,000 USDT, 0.5 BTC and 5 ETH of paper money, valued in USDT.
    await expectPaperOverview(page, /\d{2,3},\d{3}\.\d{2} USDT$/);

    // Into a sub-account from the sub-account page, which the mode no longer sends away from.
    await page.getByTestId("user-name").click();
    await page.getByRole("link", { name: "Sub-accounts" }).click();
    await page.waitForURL(/\/subaccount\/manage$/);
    await page.getByTestId("sub-page").waitFor();
    await page.getByTestId("sub-name").fill("gridbot1");
    await page.getByTestId("sub-label").fill("Grid bot");
    await page.getByTestId("sub-create").click();
    const card = page.getByTestId("sub-card");
    await card.waitFor({ timeout: 15_000 });
    await card.getByTestId("sub-switch").click();
    await page.waitForURL(/\/asset$/);
    await page.getByTestId("in-sub-account").waitFor();
    expect(await flag(page)).toBe("1");
    await expectPaperOverview(page, /\d\.\d{2} USDT$/);

    // The spot page of the sub trades on paper without asking again.
    await page.goto(`${run.server.url}/spot/BTCUSDT`);
    await page.getByTestId("simulation-badge").waitFor();
    expect(await textOf(page, "simulation-badge")).toBe("Simulation");
  });
});
