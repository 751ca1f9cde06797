/**
 * Sub-accounts and VIP in a real browser against the real server: a registered user
 * creates a sub-account on /subaccount/manage, transfers 1,000 USDT to it, switches into
 * it (the encrypted /v1/user/sub/switch), buys BTC at market in simulation mode on the
 * spot page, switches back from the header's user menu and sees the sub's BTC and total
 * in the overview. Then the page in Arabic on a phone in the dark theme, and /vip/detail
 * with the figures the VIP job reads.
 */
import { describe, expect, test } from "vitest";
import { registerThroughPages, textOf } from "./account-flows.ts";
import { chooseOption } from "./antd.ts";
import { newPage, serverAndBrowser } from "./harness.ts";

// A shared two-core machine can take more than the default 30 s to start the server.
// The first render of a page on a fresh server is the slowest: one warm-up request each for the
// pages the first test opens, so its 30 s navigation limit measures the feature, not the start.
const run = serverAndBrowser(
  { env: { DEV_OUTBOX: "true" }, readyTimeoutMs: 120_000 },
  {
    timeout: 240_000,
    setup: async (server) => {
      for (const path of ["/register", "/account/overview", "/subaccount/manage", "/spot/BTCUSDT"])
        await (await fetch(`${server.url}${path}`)).text();
    },
  },
);

/** Logged-out pages log the spec's "get user info error"; the shell's nonce trips a hydration warning (see accounts.e2e.ts). */
const allowErrors = ["get user info error", "hydrated but some attributes"];

describe("sub-accounts", () => {
  test("create, transfer, switch in, trade, switch back, see the balance in the overview", async () => {
    const page = await newPage(run.browser, { allowErrors });
    await registerThroughPages(page, run.server.url, `subs${Date.now()}@example.com`);
    await page.context().addInitScript(() => localStorage.setItem("skipGuide", "1"));

    // The user menu leads to the page.
    await page.getByTestId("user-name").click();
    await page.getByRole("link", { name: "Sub-accounts" }).click();
    await page.waitForURL(/\/subaccount\/manage$/);
    await page.getByTestId("sub-page").waitFor();
    expect(await textOf(page, "sub-count")).toBe("0 / 20");

    // Create: a bad name is refused in the form, a good one makes the card.
    await page.getByTestId("sub-name").fill("1x");
    await page.getByTestId("sub-label").fill("Grid bot");
    await page.getByTestId("sub-create").click();
    await expect.poll(() => page.locator(".ant-form-item-explain-error").count()).toBeGreaterThan(0);
    await page.getByTestId("sub-name").fill("gridbot1");
    await page.getByTestId("sub-create").click();
    await expect.poll(() => page.getByTestId("sub-card").count(), { timeout: 15_000 }).toBe(1);
    expect(await textOf(page, "sub-count")).toBe("1 / 20");
    const card = page.getByTestId("sub-card");
    expect(await card.textContent()).toContain("gridbot1@sub.meridian.local");
    expect(await textOf(page, "sub-total")).toBe("0.00 USDT");

    // Transfer 1,000 USDT from the main account's spot wallet to the sub's.
    await card.getByTestId("sub-transfer").click();
    await page.getByTestId("sub-transfer-amount").fill("1000");
    await page.getByTestId("sub-transfer-submit").click();
    await expect.poll(() => textOf(page, "sub-total")).toBe("1,000.00 USDT");
    await page.getByTestId("sub-history").waitFor();
    expect(await textOf(page, "sub-history")).toContain("1,000.00 USDT");

    // More than the sub holds cannot come back: the server's 18006 is shown.
    await card.getByTestId("sub-transfer").click();
    await chooseOption(page, page.getByTestId("sub-transfer-direction"), "From sub-account");
    await page.getByTestId("sub-transfer-amount").fill("5000");
    await page.getByTestId("sub-transfer-submit").click();
    // The refusal comes from the trading writer: a loaded machine can take seconds.
    const refusal = page.getByTestId("sub-transfer-error");
    await refusal.waitFor({ timeout: 30_000 });
    expect(await refusal.textContent()).toContain("18006");
    await page.getByRole("button", { name: "Cancel" }).click();

    // Switch into the sub: the header says so, and it trades with its own 1,000 USDT.
    await card.getByTestId("sub-switch").click();
    await page.waitForURL(/\/asset$/);
    await page.getByTestId("in-sub-account").waitFor();
    await page.goto(`${run.server.url}/spot/BTCUSDT`);
    await page.waitForLoadState("networkidle");
    await page.getByTestId("enter-simulation").first().click();
    await page.getByTestId("simulation-badge").waitFor();
    await expect.poll(() => textOf(page, "available-buy"), { timeout: 15_000 }).toBe("1,000.00 USDT");
    await page.getByTestId("order-type-market").click();
    await page.getByTestId("total-buy").fill("100");
    await page.getByTestId("submit-buy").click();
    await expect.poll(() => textOf(page, "order-notice")).toBe("Order filled.");

    // Back to the main account from the header's menu (the spot page stays).
    await page.getByTestId("user-name").click();
    await page.getByTestId("switch-back").click();
    await expect.poll(() => page.getByTestId("in-sub-account").count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => textOf(page, "available-buy"), { timeout: 15_000 }).toBe("49,000.00 USDT");
    await page.getByTestId("exit-simulation").click();
    await expect.poll(() => page.evaluate(() => localStorage.getItem("simulation-trade"))).toBeNull();

    // The overview shows what the sub holds now: about 0.001 BTC, and less USDT.
    await page.goto(`${run.server.url}/subaccount/manage`);
    await page.getByTestId("sub-card").waitFor();
    await expect
      .poll(() => page.locator('[data-wallet="SPOT"]').textContent(), { timeout: 15_000 })
      .toMatch(/0\.00\d+ BTC/);
    const spot = (await page.locator('[data-wallet="SPOT"]').textContent()) ?? "";
    const usdt = Number(/([\d.]+) USDT/.exec(spot)?.[1]);
    expect(usdt).toBeLessThan(1000);
    expect(usdt).toBeGreaterThan(0);

    // Freeze: switching in is disabled until unfrozen.
    await page.getByTestId("sub-freeze").click();
    await page.getByTestId("sub-frozen").waitFor();
    expect(await page.getByTestId("sub-switch").isDisabled()).toBe(true);
    await page.getByTestId("sub-freeze").click();
    await expect.poll(() => page.getByTestId("sub-frozen").count()).toBe(0);
  }, 180_000);

  test("in Arabic, right to left, dark, on a phone; /vip/detail shows the figures", async () => {
    const page = await newPage(run.browser, {
      allowErrors,
      locale: "ar",
      colorScheme: "dark",
      viewport: { width: 390, height: 844 },
    });
    await registerThroughPages(page, run.server.url, `subsar${Date.now()}@example.com`);
    await page.goto(`${run.server.url}/ar/subaccount/manage`);
    await page.getByTestId("sub-page").waitFor();
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    expect(await page.title()).toContain("الحسابات الفرعية");
    await page.getByTestId("sub-name").fill("phonedesk");
    await page.getByTestId("sub-label").fill("مكتب");
    await page.getByTestId("sub-create").click();
    await expect.poll(() => page.getByTestId("sub-card").count(), { timeout: 15_000 }).toBe(1);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);

    await page.goto(`${run.server.url}/ar/vip/detail`);
    await page.getByTestId("vip-progress").waitFor();
    expect(await textOf(page, "vip-volume")).toBe("0.00 USDT");
    expect(await textOf(page, "vip-needed")).toContain("1,000,000");
  });
});
