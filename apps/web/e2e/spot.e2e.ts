/**
 * The spot page in a real browser against the real server (docs/product.md §2 and §4):
 * visitors see the live market and a login prompt; a registered user enters simulation
 * mode, rests a limit order, fills a market order (trade history and balances move),
 * cancels the resting order, reads its records, tops up and resets the paper account and
 * leaves the mode; while the mode is on, pages outside the allowed list land on the
 * (language-prefixed) default spot page. Another user rests a post-only order, sees a
 * crossing one refused and leaves a stop-market order untriggered. A third buys with TP/SL:
 * the form refuses a take-profit under the price, the filled buy leaves its two legs
 * grouped in open orders, cancelling one removes both, and on a tight pair one leg fires
 * (a trade printed under the stop-loss through the test endpoint, unless the market reaches
 * the take-profit first) while the other is cancelled.
 */

import { PaperPath } from "@meridian/contracts";
import { formatDecimal, normalizeDecimal } from "@meridian/domain";
import { describe, expect, test } from "vitest";
import { paper, registerThroughPages } from "./account-flows.ts";
import { newPage, type Page, serverAndBrowser } from "./harness.ts";

// SPOT_TEST_TRADES: the TP/SL test prints a trade under its stop-loss rather than wait for the market.
const run = serverAndBrowser({ env: { SPOT_TEST_TRADES: "1" } });

/** Logged-out pages log the spec's "get user info error"; the shell's nonce trips a hydration warning (see accounts.e2e.ts). */
const allowErrors = ["get user info error", "hydrated but some attributes"];

const rows = (page: Page, table: string, attr: string) =>
  page.getByTestId(table).locator(`tbody tr[${attr}]`);
const textOf = async (page: Page, testId: string) =>
  ((await page.getByTestId(testId).textContent()) ?? "").trim();

describe("spot trading", () => {
  test("a visitor sees the live market, the symbol list and a login prompt", async () => {
    const page = await newPage(run.browser, { allowErrors });
    await page.goto(`${run.server.url}/spot/BTCUSDT`);
    await page.waitForLoadState("networkidle");
    expect(await page.title()).toContain("BTC/USDT");
    expect(await page.getByTestId("book-ask").count()).toBeGreaterThan(5);
    expect(await page.getByTestId("book-bid").count()).toBeGreaterThan(5);
    expect(await textOf(page, "ticker-last")).toMatch(/^\d{1,3}(,\d{3})*\.\d{2}/);
    await expect.poll(() => textOf(page, "feed-status")).toBe("Simulated market");
    await page.getByTestId("trade-login-prompt").first().waitFor();
    await page.getByTestId("guide-skip").click();
    expect(await page.evaluate(() => localStorage.getItem("skipGuide"))).toBe("1");

    // The still chart draws the history; pointing at it builds the live (canvas) chart.
    await expect.poll(() => page.getByTestId("kline-preview").locator("rect").count()).toBeGreaterThan(40);
    await page.locator(".trade-chart-box").hover();
    await page.locator(".trade-chart-box canvas").first().waitFor();
    expect(await page.getByTestId("kline-preview").count()).toBe(0);

    await page.getByTestId("kline-interval-1h").click();
    await page.locator(".trade-chart-box[data-live] canvas").first().waitFor();
    expect(await page.evaluate(() => localStorage.getItem("klineInterval"))).toBe("1h");
    await page.getByTestId("symbol-switcher").click();
    await page.getByTestId("symbol-ETHUSDT").click();
    await page.waitForURL(/\/spot\/ETHUSDT$/);
    await expect.poll(() => page.getByTestId("symbol-switcher").textContent()).toContain("ETH/USDT");
  });

  test("simulation mode: limit rests, market fills, cancel, records, top-up/reset, guard redirects, exit", async () => {
    const page = await newPage(run.browser, { allowErrors });
    await registerThroughPages(page, run.server.url, `spot${Date.now()}@example.com`);
    await page.context().addInitScript(() => localStorage.setItem("skipGuide", "1"));

    await page.goto(`${run.server.url}/spot/BTCUSDT`);
    await page.waitForLoadState("networkidle");
    await page.getByTestId("enter-simulation").first().click();
    await page.getByTestId("simulation-badge").waitFor();
    expect(await page.evaluate(() => localStorage.getItem("simulation-trade"))).toBe("1");
    await expect.poll(() => textOf(page, "available-buy"), { timeout: 15_000 }).toBe("50,000.00 USDT");

    // A limit buy far under the market rests in the book.
    await page.getByTestId("price-buy").fill("1000");
    await page.getByTestId("amount-buy").fill("0.01");
    await page.getByTestId("submit-buy").click();
    await expect.poll(() => textOf(page, "order-notice")).toBe("Order placed.");
    // Each outcome is also a toast (3 s, SPEC §9), seen wherever the user is looking.
    const toast = (text: string) => page.locator(".ant-message-notice").filter({ hasText: text }).first();
    await toast("Order placed.").waitFor();
    await expect.poll(() => rows(page, "open-orders", "data-order-id").count()).toBe(1);
    await expect.poll(() => textOf(page, "available-buy")).not.toBe("50,000.00 USDT");

    // A market sell fills against the book: a trade appears and balances move.
    await page.getByTestId("order-type-market").click();
    await page.getByTestId("amount-sell").fill("0.01");
    await page.getByTestId("submit-sell").click();
    await expect.poll(() => textOf(page, "order-notice")).toBe("Order filled.");
    await page.getByTestId("orders-tab-trades").click();
    await expect.poll(() => rows(page, "trade-history", "data-trade-id").count()).toBeGreaterThan(0);
    await page.getByTestId("orders-tab-assets").click();
    await expect.poll(() => textOf(page, "balance-total-BTC")).toBe("0.49000000");
    const usdt = await textOf(page, "balance-total-USDT");
    expect(usdt).not.toBe("50,000.00");
    // USDT in cents, grouped: not "49,024.12345678".
    expect(usdt).toMatch(/^\d{2},\d{3}\.\d{2}$/);

    // Cancel the resting order: it leaves the open list and its hold is released.
    await page.getByTestId("orders-tab-open").click();
    await page.getByTestId("cancel-order").click();
    await toast("Order cancelled.").waitFor();
    await expect.poll(() => rows(page, "open-orders", "data-order-id").count()).toBe(0);
    await page.getByTestId("orders-tab-history").click();
    await expect
      .poll(() => page.getByTestId("order-history").locator('tr[data-status="CANCELED"]').count())
      .toBe(1);

    // Records: both orders, filtered by side in the URL, and the trades tab.
    await page.goto(`${run.server.url}/record/exchange`);
    await expect.poll(() => rows(page, "records-orders", "data-order-id").count()).toBe(2);
    await page.getByTestId("records-side").selectOption("SELL");
    await page.waitForURL(/side=SELL/);
    await expect.poll(() => rows(page, "records-orders", "data-order-id").count()).toBe(1);
    await page.getByTestId("records-tab-trades").click();
    await expect.poll(() => rows(page, "records-trades", "data-trade-id").count()).toBeGreaterThan(0);

    // Assets: a confirmed top-up, then a confirmed reset back to the starting funds.
    await page.goto(`${run.server.url}/asset/spot`);
    await expect.poll(() => textOf(page, "asset-total-BTC")).toBe("0.49000000");
    await page.getByTestId("topup-amount").fill("1000");
    await page.getByTestId("topup-submit").click();
    await page.locator("#assets-confirm").click();
    await expect.poll(() => textOf(page, "assets-notice")).toBe("1000 USDT added.");
    await page.getByTestId("reset-open").click();
    await page.locator("#assets-confirm").click();
    await expect.poll(() => textOf(page, "asset-total-BTC")).toBe("0.50000000");
    expect(await textOf(page, "asset-total-USDT")).toBe("50,000.00");

    // The guard: pages outside the allowed list land on the spot page, prefix kept.
    await page.goto(`${run.server.url}/airdrops`);
    await page.waitForURL(`${run.server.url}/spot/BTCUSDT`);
    await page.goto(`${run.server.url}/ja/airdrops`);
    await page.waitForURL(`${run.server.url}/ja/spot/BTCUSDT`);
    await page.goto(`${run.server.url}/fee`);
    await page.waitForLoadState("networkidle");
    expect(new URL(page.url()).pathname).toBe("/fee");
    expect(await page.getByTestId("fee-table").locator("tbody tr").count()).toBe(10);
    expect(await textOf(page, "current-tier")).toContain("VIP 0");
    // Futures maker/taker by level (VIP 0: 0.02 % / 0.05 %) and margin interest per asset.
    const futuresVip0 = page.getByTestId("fee-table-futures").locator('tr[data-level="0"] td');
    expect(await futuresVip0.allTextContents()).toEqual(expect.arrayContaining(["0.02%", "0.05%"]));
    expect(
      await page.getByTestId("interest-table").locator('tr[data-asset="USDT"] td').allTextContents(),
    ).toEqual(["USDT", "0.02%", "7.3%"]);

    // Leaving: the flag is cleared and the page reloads outside simulation mode.
    await page.goto(`${run.server.url}/spot/BTCUSDT`);
    await page.waitForLoadState("networkidle");
    const reloaded = page.waitForEvent("load");
    await page.getByTestId("exit-simulation").click();
    await reloaded;
    expect(await page.evaluate(() => localStorage.getItem("simulation-trade"))).toBeNull();
    await page.getByTestId("trade-sim-prompt").first().waitFor();
    await page.goto(`${run.server.url}/airdrops`);
    await page.waitForLoadState("networkidle");
    expect(new URL(page.url()).pathname).toBe("/airdrops");
  });

  test("post-only rests, a crossing post-only is refused, a stop-market order waits untriggered", async () => {
    const page = await newPage(run.browser, { allowErrors });
    await registerThroughPages(page, run.server.url, `spot-adv${Date.now()}@example.com`);
    await page.context().addInitScript(() => localStorage.setItem("skipGuide", "1"));
    await page.goto(`${run.server.url}/spot/BTCUSDT`);
    await page.waitForLoadState("networkidle");
    await page.getByTestId("enter-simulation").first().click();
    await page.getByTestId("simulation-badge").waitFor();
    await expect.poll(() => textOf(page, "available-buy"), { timeout: 15_000 }).toBe("50,000.00 USDT");
    const last = Number((await textOf(page, "ticker-last")).replace(/[^\d.]/g, ""));
    expect(last).toBeGreaterThan(0);

    // Post-only under the market rests as a maker order; time in force is off with it.
    await page.getByTestId("post-only-buy").check();
    expect(await page.getByTestId("tif-buy").isDisabled()).toBe(true);
    await page.getByTestId("price-buy").fill((last * 0.8).toFixed(2));
    await page.getByTestId("amount-buy").fill("0.01");
    await page.getByTestId("submit-buy").click();
    await expect.poll(() => textOf(page, "order-notice")).toBe("Order placed.");
    const open = page.getByTestId("open-orders").locator("tbody tr[data-order-id]");
    await expect.poll(() => open.count()).toBe(1);
    expect(await open.first().textContent()).toContain("Post only");

    // Post-only above the best ask would take: refused, said in words under the price it is
    // about (the price field marked invalid), nothing placed.
    await page.getByTestId("price-buy").fill((last * 1.05).toFixed(2));
    await page.getByTestId("submit-buy").click();
    const refusal = page.getByTestId("order-form-buy").locator('.trade-form-problem[data-field="price"]');
    await expect
      .poll(() => refusal.textContent())
      .toBe(
        "Post-only order refused: at this price it would trade at once. Choose a price that rests on the book.",
      );
    expect(await page.getByTestId("price-buy").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByTestId("order-notice").count()).toBe(0);
    expect(await open.count()).toBe(1);

    // A stop-market buy above the market waits for its trigger.
    await page.getByTestId("order-type-stop_market").click();
    await page.getByTestId("stop-price-buy").fill((last * 1.3).toFixed(2));
    await page.getByTestId("amount-buy").fill("0.001");
    await page.getByTestId("submit-buy").click();
    await expect.poll(() => textOf(page, "order-notice")).toBe("Order placed.");
    await expect.poll(() => open.count()).toBe(2);
    const stop = page.getByTestId("open-orders").locator('tbody tr[data-triggered="false"]');
    await expect.poll(() => stop.count()).toBe(1);
    expect(await stop.textContent()).toContain("Stop-market");
    expect(await stop.getByTestId("order-untriggered").textContent()).toContain("Not triggered");
  });

  test("TP/SL: legs wait grouped after the fill, one cancelled takes the other, one fired cancels the other", async () => {
    const page = await newPage(run.browser, { allowErrors });
    await registerThroughPages(page, run.server.url, `spot-tpsl${Date.now()}@example.com`);
    await page.context().addInitScript(() => localStorage.setItem("skipGuide", "1"));
    await page.goto(`${run.server.url}/spot/BTCUSDT`);
    await page.waitForLoadState("networkidle");
    await page.getByTestId("enter-simulation").first().click();
    await page.getByTestId("simulation-badge").waitFor();
    await expect.poll(() => textOf(page, "available-buy"), { timeout: 15_000 }).toBe("50,000.00 USDT");
    const lastPrice = async () => Number((await textOf(page, "ticker-last")).replace(/[^\d.]/g, ""));
    const legs = page.getByTestId("open-orders").locator("tbody tr[data-tpsl-role]");
    const problem = page.getByTestId("order-form-buy").locator(".trade-form-problem");

    // The checkbox shows the two triggers; a take-profit under the buy price is refused in words.
    let last = await lastPrice();
    const price = (last * 1.002).toFixed(2);
    await page.getByTestId("price-buy").fill(price);
    await page.getByTestId("amount-buy").fill("0.001");
    await page.getByTestId("tpsl-buy").check();
    await page.getByTestId("tp-trigger-buy").fill((last * 0.9).toFixed(2));
    await page.getByTestId("sl-trigger-buy").fill((last * 0.5).toFixed(2));
    await page.getByTestId("submit-buy").click();
    await expect
      .poll(() => problem.textContent())
      .toBe(
        // The form names the price as a decimal without trailing zeros (97190.70 -> 97190.7).
        `The take-profit trigger must be above ${normalizeDecimal(price)}.`,
      );
    // Shown with the TP/SL fields it is about, not at the foot of the form.
    expect(await page.getByTestId("tpsl-box-buy").locator(".trade-form-problem").count()).toBe(1);
    expect(await problem.getAttribute("data-field")).toBe("tpsl");
    expect(await page.getByTestId("open-orders").locator("tbody tr[data-order-id]").count()).toBe(0);

    // A marketable buy with a wide pair fills; its two legs wait, grouped under the parent.
    // The take-profit names its own limit price; the stop-loss, left empty, sells at market.
    const tpLimit = (last * 1.49).toFixed(2);
    await page.getByTestId("tp-trigger-buy").fill((last * 1.5).toFixed(2));
    await page.getByTestId("tp-limit-buy").fill(tpLimit);
    await page.getByTestId("submit-buy").click();
    await expect.poll(() => legs.count(), { timeout: 15_000 }).toBe(2);
    expect(await legs.evaluateAll((rows) => rows.map((r) => r.getAttribute("data-tpsl-role")))).toEqual([
      "TAKE_PROFIT",
      "STOP_LOSS",
    ]);
    expect(await legs.first().textContent()).toContain(formatDecimal(tpLimit, 2));
    expect(await legs.nth(1).textContent()).toContain("Market");
    const parentId = await legs.first().getAttribute("data-tpsl-parent");
    expect(
      await page
        .getByTestId("open-orders")
        .locator(`tr.trade-tpsl-group[data-tpsl-parent="${parentId}"]`)
        .textContent(),
    ).toBe(`TP/SL of order #${parentId} · one cancels the other`);
    expect(await legs.first().textContent()).toContain("Take profit");
    expect(await legs.nth(1).textContent()).toContain("Stop loss");
    // Cancelling the take-profit cancels the pair.
    await legs.first().getByTestId("cancel-order").click();
    await expect.poll(() => legs.count(), { timeout: 15_000 }).toBe(0);
    await page.getByTestId("orders-tab-history").click();
    const historyLegs = page
      .getByTestId("order-history")
      .locator(`tbody tr[data-tpsl-parent="${parentId}"][data-tpsl-role]`);
    await expect
      .poll(() => historyLegs.evaluateAll((rows) => rows.map((r) => r.getAttribute("data-status"))))
      .toEqual(["CANCELED", "CANCELED"]);
    await page.getByTestId("orders-tab-open").click();

    // A tight pair around the market: the first leg the price reaches fires, the other is cancelled.
    last = await lastPrice();
    const tight = (last * 1.002).toFixed(2);
    await page.getByTestId("price-buy").fill(tight);
    await page.getByTestId("amount-buy").fill("0.001");
    await page.getByTestId("tp-limit-buy").fill("");
    await page.getByTestId("tp-trigger-buy").fill((Number(tight) * 1.0001).toFixed(2));
    const sl = (last * 0.9998).toFixed(2);
    await page.getByTestId("sl-trigger-buy").fill(sl);
    await page.getByTestId("submit-buy").click();
    await expect.poll(() => problem.count()).toBe(0);
    await page.getByTestId("orders-tab-history").click();
    const firstParent = Number(parentId);
    const statuses = () =>
      page
        .getByTestId("order-history")
        .locator("tbody tr[data-tpsl-role]")
        .evaluateAll(
          (rows, skip) =>
            rows
              .filter((r) => r.getAttribute("data-tpsl-parent") !== skip)
              .map((r) => `${r.getAttribute("data-tpsl-role")}:${r.getAttribute("data-status")}`)
              .sort(),
          String(firstParent),
        );
    // Both legs wait (or one already fired, if the market got there first); then a trade
    // under the stop-loss, as the market could print it.
    // Waiting legs show under the open tab only (history keeps finished orders).
    const placed = async () => {
      await page.getByTestId("orders-tab-open").click();
      if ((await legs.count()) === 2) return true;
      await page.getByTestId("orders-tab-history").click();
      return (await statuses()).length === 2;
    };
    await expect.poll(placed).toBe(true);
    await page.getByTestId("orders-tab-history").click();
    const under = (Number(sl) * 0.999).toFixed(2);
    await paper(page, "POST", PaperPath.TEST_TRADE, { symbol: "BTCUSDT", price: under });
    await expect
      .poll(statuses, { timeout: 30_000, interval: 500 })
      .toSatisfy(
        (s: string[]) =>
          JSON.stringify(s) === JSON.stringify(["STOP_LOSS:CANCELED", "TAKE_PROFIT:FILLED"]) ||
          JSON.stringify(s) === JSON.stringify(["STOP_LOSS:FILLED", "TAKE_PROFIT:CANCELED"]),
      );
    await page.getByTestId("orders-tab-open").click();
    await expect.poll(() => legs.count()).toBe(0);
  });
});
