/**
 * /asset in a real browser against the real server: the estimated balance is the sum of
 * every wallet, not the spot wallet alone. A user moves USDT into the futures wallet and
 * opens a long; the overview's estimate then equals spot + futures (wallet, isolated
 * margin and unrealised PnL) + margin (net of debt), each as shown on the page.
 */
import { type FuturesAccount, FuturesPath } from "@meridian/contracts";
import { describe, expect, test } from "vitest";
import { paper, registerThroughPages, textOf } from "./account-flows.ts";
import { newPage, serverAndBrowser } from "./harness.ts";

const run = serverAndBrowser();
const allowErrors = ["get user info error", "hydrated but some attributes"];

const usdtOf = (text: string) => Number.parseFloat(text.replace(/[^\d.-]/g, ""));

describe("asset overview", () => {
  test("the estimated balance adds the futures wallet with its unrealised PnL to spot", async () => {
    const page = await newPage(run.browser, { allowErrors });
    await registerThroughPages(page, run.server.url, `assets${Date.now()}@example.com`);
    await page.context().addInitScript(() => localStorage.setItem("skipGuide", "1"));
    await page.goto(`${run.server.url}/futures/usdt/BTCUSDT`);
    await page.waitForLoadState("networkidle");
    const accept = page.getByTestId("futures-agreement-accept");
    await accept.waitFor();
    await accept.click();
    await page.getByTestId("enter-simulation").first().click();
    await page.getByTestId("simulation-badge").waitFor();
    await expect.poll(() => textOf(page, "futures-wallet"), { timeout: 15_000 }).toBe("0.00 USDT");

    await page.getByTestId("futures-transfer-open").click();
    await page.getByTestId("transfer-amount").fill("1000");
    await page.getByTestId("transfer-submit").click();
    await expect.poll(() => textOf(page, "futures-wallet")).toBe("1,000.00 USDT");
    await page.getByTestId("futures-type-market").click();
    await page.getByTestId("futures-qty").fill("0.01");
    await page.getByTestId("futures-long").click();
    await expect.poll(() => textOf(page, "futures-notice")).toBe("Order filled.");
    const account = await paper<FuturesAccount>(page, "GET", FuturesPath.ACCOUNT);
    const equity = Number(account.wallet) + Number(account.isolatedMargin) + Number(account.unrealisedPnl);
    expect(Number(account.wallet)).toBeGreaterThan(990);

    await page.goto(`${run.server.url}/asset`);
    const link = (key: string) => textOf(page, `account-link-${key}`);
    // The mark moves between the two reads: within a few USDT on 0.01 BTC.
    await expect.poll(async () => usdtOf(await link("futures")), { timeout: 15_000 }).toBeCloseTo(equity, -1);
    await expect.poll(async () => (await link("margin")).includes("USDT"), { timeout: 15_000 }).toBe(true);
    const estimate = page.getByTestId("assets-estimate").locator("strong");
    const sumOfWallets = async () => {
      const spot = usdtOf((await link("spot")).replace(/^\D+/, ""));
      const futures = usdtOf((await link("futures")).replace(/^\D+/, ""));
      const margin = usdtOf((await link("margin")).replace(/^\D+/, ""));
      return usdtOf((await estimate.textContent()) ?? "") - (spot + futures + margin);
    };
    // Each figure is rounded to cents on screen; the estimate is their sum, not spot alone.
    await expect.poll(sumOfWallets, { timeout: 15_000 }).toBeCloseTo(0, 1);
    // The 1,000 USDT moved out of spot still counts (spot alone was the old estimate).
    const spot = usdtOf((await link("spot")).replace(/^\D+/, ""));
    expect(usdtOf((await estimate.textContent()) ?? "") - spot).toBeGreaterThan(990);
  });
});
