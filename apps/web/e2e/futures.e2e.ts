/**
 * USDT-M perpetuals on paper in a real browser against the real server: a registered
 * user enters simulation mode on /futures/usdt/BTCUSDT, moves USDT from spot into the
 * futures wallet, opens a 25x long, watches its PnL follow a mark pinned through the
 * test endpoint (FUTURES_TEST_MARKS=1), sets and cancels TP/SL, then a mark under the
 * liquidation price closes the position through the liquidation engine. A second user
 * switches to hedge mode (refused while an order is open), holds a long and a short on
 * one symbol and adjusts the long's isolated margin.
 */
import { FuturesPath, type FuturesPosition } from "@meridian/contracts";
import { formatDecimal } from "@meridian/domain";
import { describe, expect, test } from "vitest";
import { paper, registerThroughPages, textOf } from "./account-flows.ts";
import { clickUntil } from "./antd.ts";
import { expectDimmed } from "./backdrop.ts";
import { newPage, type Page, serverAndBrowser } from "./harness.ts";

const run = serverAndBrowser({ env: { FUTURES_TEST_MARKS: "1" } });

/** Logged-out pages log the spec's "get user info error"; the shell's nonce trips a hydration warning (see accounts.e2e.ts). */
const allowErrors = ["get user info error", "hydrated but some attributes"];

/** Positions and the account reach the page once a second over /v1/ws/futures. */
const LIVE = { timeout: 10_000 };

const pinMark = (page: Page, price: string | null) =>
  paper(page, "POST", FuturesPath.TEST_MARK, { symbol: "BTCUSDT", price });

/** The futures risk agreement a new user sees once on the first futures visit: read, then accepted. */
async function acceptRiskAgreement(page: Page): Promise<void> {
  const accept = page.getByTestId("futures-agreement-accept");
  await accept.waitFor();
  expect(await page.getByTestId("futures-agreement-body").textContent()).toContain("liquidated");
  await clickUntil(accept, async () => !(await accept.isVisible()));
}

/** A new user, registered through the pages, on /futures/usdt/BTCUSDT in simulation mode with an empty wallet. */
async function newSimulationTrader(page: Page, prefix: string): Promise<void> {
  await registerThroughPages(page, run.server.url, `${prefix}${Date.now()}@example.com`);
  await page.context().addInitScript(() => localStorage.setItem("skipGuide", "1"));
  await page.goto(`${run.server.url}/futures/usdt/BTCUSDT`);
  await page.waitForLoadState("networkidle");
  await acceptRiskAgreement(page);
  await page.getByTestId("enter-simulation").first().click();
  await page.getByTestId("simulation-badge").waitFor();
  await page.waitForURL(`${run.server.url}/futures/usdt/BTCUSDT`);
  await expect.poll(() => textOf(page, "futures-wallet"), { timeout: 15_000 }).toBe("0.00 USDT");
}

async function position(page: Page): Promise<FuturesPosition | undefined> {
  const list = await paper<FuturesPosition[]>(page, "GET", FuturesPath.POSITIONS);
  return list.find((p) => p.symbol === "BTCUSDT");
}

describe("futures trading", () => {
  test("a visitor sees the market and a login prompt; /protection-fund shows the fund", async () => {
    const page = await newPage(run.browser, { allowErrors });
    await page.goto(`${run.server.url}/futures/usdt/BTCUSDT`);
    await page.waitForLoadState("networkidle");
    expect(await page.title()).toContain("BTCUSDT");
    await page.getByTestId("futures-login-prompt").waitFor();
    expect(await page.getByTestId("book-ask").count()).toBeGreaterThan(5);
    await expect.poll(() => textOf(page, "mark-price")).toMatch(/^\d{1,3}(,\d{3})*\.\d+$/);

    await page.goto(`${run.server.url}/protection-fund`);
    expect(await textOf(page, "insurance-balance")).toMatch(/^\d[\d,]*\.\d{2} USDT$/);
  });

  test("at phone width the action bar opens the form and then leaves it its own buttons", async () => {
    const page = await newPage(run.browser, { allowErrors, viewport: { width: 390, height: 844 } });
    await page.goto(`${run.server.url}/futures/usdt/BTCUSDT`);
    await page.waitForLoadState("networkidle");
    const bar = page.getByTestId("futures-phone-actions");
    expect(await bar.isVisible()).toBe(true);
    await bar.locator("button").first().click();
    await expect.poll(() => page.getByTestId("phone-tab-form").getAttribute("aria-selected")).toBe("true");
    await page.getByTestId("futures-login-prompt").waitFor();
    expect(await bar.isVisible()).toBe(false);
    await page.getByTestId("phone-tab-chart").click();
    expect(await bar.isVisible()).toBe(true);
  });

  test("a failed read shows its code and a retry, not an empty screen", async () => {
    // The refused call's HTTP 503 is a console line of the browser's own.
    const page = await newPage(run.browser, { allowErrors: [...allowErrors, "status of 503"] });
    await newSimulationTrader(page, "futures-fail");
    expect(await page.getByTestId("load-error").count()).toBe(0);

    // By path: the page asks with a query (`?family=usdt`), which a glob would have to spell.
    const positions = (url: URL) => url.pathname === FuturesPath.POSITIONS;
    await page.route(positions, (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ code: "10503", msg: "Service temporarily unavailable", data: null }),
      }),
    );
    await page.reload();
    const banner = page.getByTestId("load-error").first();
    await banner.waitFor({ timeout: 15_000 });
    expect(await banner.textContent()).toContain("10503");

    await page.unroute(positions);
    await banner.getByRole("button").click();
    await page.getByTestId("load-error").first().waitFor({ state: "detached", timeout: 15_000 });
  });

  test("transfer in, leveraged long, PnL on the pinned mark, TP/SL, liquidation", async () => {
    const page = await newPage(run.browser, { allowErrors });
    await newSimulationTrader(page, "futures");
    // Shown once: the reload into simulation mode does not ask again, and the flag is set.
    // (A closed antd modal may stay in the DOM, hidden: what counts is that none is shown.)
    expect(await page.getByTestId("futures-agreement-accept").isVisible()).toBe(false);
    const info = await page.evaluate(async () => {
      const res = await fetch("/v1/user/overview/userinfo", { method: "POST" });
      return ((await res.json()) as { data: { userInfo: { openContract: boolean } } }).data.userInfo;
    });
    expect(info.openContract).toBe(true);

    // A first order on the empty futures wallet: the shortfall comes as a prefilled transfer.
    await page.getByTestId("futures-type-market").click();
    await page.getByTestId("futures-qty").fill("0.05");
    await page.getByTestId("futures-long").click();
    await page.getByTestId("futures-shortfall").waitFor();
    await page.getByTestId("wallet-transfer").waitFor();
    expect(await page.getByTestId("transfer-from").inputValue()).toBe("SPOT");
    expect(await page.getByTestId("transfer-to").inputValue()).toBe("FUTURES");
    await expectDimmed(page, "transfer dialog");
    // The prefill waits for the spot balance it is capped at; USDT is shown in cents.
    await expect.poll(() => textOf(page, "transfer-available")).toBe("50,000.00 USDT");
    const prefilled = await page.getByTestId("transfer-amount").inputValue();
    // 0.05 BTC (about 4,850 USDT) at the default leverage needs a few hundred USDT of margin and fee
    expect(prefilled).toMatch(/^\d+(\.\d{1,2})?$/);
    expect(Number(prefilled)).toBeGreaterThan(150);
    expect(Number(prefilled)).toBeLessThan(600);
    expect(await textOf(page, "futures-shortfall-transfer")).toBe(
      `Transfer ${formatDecimal(prefilled, 2)} USDT`,
    );
    const transfer = page.getByTestId("wallet-transfer");
    await clickUntil(page.getByRole("button", { name: "Cancel" }), async () => !(await transfer.isVisible()));

    // Spot -> futures wallet through the transfer dialog.
    await page.getByTestId("futures-transfer-open").click();
    await page.getByTestId("transfer-amount").fill("1000");
    await page.getByTestId("transfer-submit").click();
    await expect.poll(() => textOf(page, "futures-wallet")).toBe("1,000.00 USDT");

    // 25x, then a market long of 0.05 BTC (about 4,800 USDT notional).
    await page.getByTestId("leverage-25").click();
    await expect.poll(() => textOf(page, "leverage-value")).toBe("25x");
    await page.getByTestId("futures-type-market").click();
    await page.getByTestId("futures-qty").fill("0.05");
    await page.getByTestId("futures-long").click();
    await expect.poll(() => textOf(page, "futures-notice")).toBe("Order filled.");
    const row = page.getByTestId("positions-table").locator('tr[data-symbol="BTCUSDT"]');
    await row.waitFor();
    expect(await textOf(page, "position-size")).toBe("0.050");
    const opened = await position(page);
    expect(opened?.leverage).toBe(25);
    const entry = Number(opened?.entryPrice);
    const liq = Number(opened?.liquidationPrice);
    // Cross margin: the whole 1,000 USDT wallet stands behind the position.
    expect(liq).toBeGreaterThan(entry - 1000 / 0.05);
    expect(liq).toBeLessThan(entry - 900 / 0.05);

    // The mark 1,000 above the entry: +50 USDT on 0.05 BTC, on screen.
    const up = Math.round(entry + 1000);
    await pinMark(page, String(up));
    const shownPnl = async () => Number.parseFloat((await textOf(page, "position-pnl")).replace(/,/g, ""));
    await expect.poll(shownPnl, LIVE).toBeCloseTo(0.05 * (up - entry), 1);
    await pinMark(page, String(Math.round(entry - 500)));
    await expect.poll(() => textOf(page, "position-pnl"), LIVE).toMatch(/^-/);

    // TP/SL: two close-position triggers on the mark, listed under open orders.
    await page.getByTestId("tpsl-tp").fill(String(Math.round(entry + 5000)));
    await page.getByTestId("tpsl-sl").fill(String(Math.round((entry + liq) / 2)));
    await page.getByTestId("tpsl-set").click();
    await expect.poll(async () => (await position(page))?.takeProfit ?? null).not.toBeNull();
    await page.getByTestId("futures-tab-open").click();
    const orders = page.getByTestId("futures-open-orders").locator("tr[data-order-id]");
    await expect.poll(() => orders.count()).toBe(2);

    // Triggers run before the risk pass: cancel them so the mark below liquidation liquidates.
    for (let i = 0; i < 2; i++) {
      await page.getByTestId("futures-cancel").first().click();
      await expect.poll(() => orders.count()).toBe(1 - i);
    }

    await pinMark(page, String(Math.round(liq - 200)));
    await page.getByTestId("futures-tab-positions").click();
    await expect.poll(() => position(page), LIVE).toBeUndefined();
    await expect.poll(() => row.count(), LIVE).toBe(0);
    await page.getByTestId("futures-tab-trades").click();
    await expect
      .poll(() => page.getByTestId("futures-trades").locator('tr[data-liquidation="1"]').count())
      .toBe(1);
    expect(Number((await textOf(page, "futures-wallet")).replace(/[, USDT]/g, ""))).toBeLessThan(1000);
  });

  test("close and reopen: TP/SL go with the position, refusals show at the control, the next order follows", async () => {
    const page = await newPage(run.browser, { allowErrors });
    await newSimulationTrader(page, "reopen");
    await pinMark(page, null);
    await page.getByTestId("futures-transfer-open").click();
    await page.getByTestId("transfer-amount").fill("1000");
    await page.getByTestId("transfer-submit").click();
    await expect.poll(() => textOf(page, "futures-wallet")).toBe("1,000.00 USDT");
    await page.getByTestId("leverage-25").click();
    await expect.poll(() => textOf(page, "leverage-value")).toBe("25x");

    // Before the order: 0.01 BTC at 50,000 at 25x is 20 USDT of margin plus a 0.05 % taker fee;
    // 1,000 USDT covers 1,000 / (2,000 + 25) = 0.493 BTC.
    await page.getByTestId("futures-price").fill("50000");
    await page.getByTestId("futures-qty").fill("0.01");
    await expect.poll(() => textOf(page, "futures-cost-value")).toBe("20.25 USDT");
    expect(await textOf(page, "futures-margin-required")).toBe("20.00 USDT");
    expect(await textOf(page, "futures-max-size")).toBe("0.493 BTC");
    await page.getByTestId("futures-max-size").click();
    expect(await page.getByTestId("futures-qty").inputValue()).toBe("0.493");

    // A market long with a toast, then its TP/SL.
    await page.getByTestId("futures-type-market").click();
    await page.getByTestId("futures-qty").fill("0.02");
    await page.getByTestId("futures-long").click();
    const toast = (text: string) => page.locator(".ant-message-notice").filter({ hasText: text });
    await toast("Order filled.").waitFor();
    await expect.poll(() => position(page), LIVE).toMatchObject({ leverage: 25, marginMode: "cross" });
    const entry = Number((await position(page))?.entryPrice);
    await page.getByTestId("tpsl-tp").fill(String(Math.round(entry + 5000)));
    await page.getByTestId("tpsl-sl").fill(String(Math.round(entry - 5000)));
    await page.getByTestId("tpsl-set").click();
    const openRows = page.getByTestId("futures-open-orders").locator("tr[data-order-id]");
    await page.getByTestId("futures-tab-open").click();
    await expect.poll(() => openRows.count()).toBe(2);

    // A cross position takes a new leverage the margin can carry (as on Bitget); 1x would
    // need about 1,940 USDT for 0.02 BTC and is refused: said under the control, which goes
    // back to what the server holds.
    await page.getByTestId("leverage-1").click();
    await expect.poll(() => textOf(page, "futures-leverage-error")).toBe("Not enough available margin.");
    await expect.poll(() => textOf(page, "leverage-value")).toBe("25x");
    await page.getByTestId("margin-mode-isolated").click();
    const modeError = page.getByTestId("futures-marginMode-error");
    await modeError.waitFor();
    expect(await page.getByTestId("futures-leverage-error").count()).toBe(0);
    expect(await page.getByTestId("margin-mode-isolated").getAttribute("aria-pressed")).toBe("false");
    const toggle = await page.getByTestId("margin-mode-isolated").boundingBox();
    const note = await modeError.boundingBox();
    expect(note && toggle ? note.y - (toggle.y + toggle.height) : Number.POSITIVE_INFINITY).toBeLessThan(48);

    // A market close takes the TP/SL with it; the settings then change and the next order uses them.
    await page.getByTestId("futures-tab-positions").click();
    await page.getByTestId("position-close").click();
    await toast("Position closed.").waitFor();
    await expect.poll(() => position(page), LIVE).toBeUndefined();
    await page.getByTestId("futures-tab-open").click();
    await page.getByTestId("futures-open-orders").waitFor();
    await expect.poll(() => openRows.count()).toBe(0);
    await page.getByTestId("leverage-50").click();
    await expect.poll(() => textOf(page, "leverage-value")).toBe("50x");
    await page.getByTestId("margin-mode-isolated").click();
    await expect
      .poll(() => page.getByTestId("margin-mode-isolated").getAttribute("aria-pressed"))
      .toBe("true");
    expect(await page.getByTestId("futures-marginMode-error").count()).toBe(0);
    await page.getByTestId("futures-long").click();
    await expect.poll(() => position(page), LIVE).toMatchObject({ leverage: 50, marginMode: "isolated" });
  });

  test("a shortfall above the spot balance: grouped amounts, the prefill capped at the balance", async () => {
    const page = await newPage(run.browser, { allowErrors });
    await newSimulationTrader(page, "futures-big");
    await page.getByTestId("leverage-1").click();
    await expect.poll(() => textOf(page, "leverage-value")).toBe("1x");
    // 1 BTC at 1x needs about 97,000 USDT of margin: more than the 50,000 USDT on spot.
    await page.getByTestId("futures-type-market").click();
    await page.getByTestId("futures-qty").fill("1");
    await page.getByTestId("futures-long").click();
    await page.getByTestId("wallet-transfer").waitFor();
    const action = await textOf(page, "futures-shortfall-transfer");
    expect(action).toMatch(/^Transfer \d{2,3},\d{3}\.\d{2} USDT$/);
    const needed = action.slice("Transfer ".length, -" USDT".length);
    expect(await textOf(page, "futures-shortfall")).toContain(`needs ${needed} USDT more`);
    await expect.poll(() => textOf(page, "transfer-available")).toBe("50,000.00 USDT");
    expect(await page.getByTestId("transfer-amount").inputValue()).toBe("50000");
    // Clicked once the dialog has finished opening, and again if the click did not take
    // (a loaded CI run once saw the dialog stay open after the click).
    const dialog = page.getByTestId("wallet-transfer");
    await clickUntil(page.getByTestId("transfer-submit"), async () => !(await dialog.isVisible()));
    await expect.poll(() => textOf(page, "futures-wallet")).toBe("50,000.00 USDT");
  });

  test("hedge mode: the mode is locked by an open order, then a long and a short on one symbol; adjust isolated margin", async () => {
    const page = await newPage(run.browser, { allowErrors });
    await newSimulationTrader(page, "hedge");
    await page.getByTestId("futures-transfer-open").click();
    await page.getByTestId("transfer-amount").fill("2000");
    await page.getByTestId("transfer-submit").click();
    await expect.poll(() => textOf(page, "futures-wallet")).toBe("2,000.00 USDT");
    await pinMark(page, null);

    // A resting limit order locks the position mode: the dialog says so and stays open.
    // 0.2 BTC at 1,000: the contract's 100 USDT minimum, far under the market.
    await page.getByTestId("futures-price").fill("1000");
    await page.getByTestId("futures-qty").fill("0.2");
    await page.getByTestId("futures-long").click();
    await expect.poll(() => textOf(page, "futures-notice")).toBe("Order placed.");
    await page.getByTestId("position-mode-open").click();
    await page.getByTestId("position-mode-hedge").check();
    await page.getByTestId("position-mode-submit").click();
    await expect
      .poll(() => textOf(page, "position-mode-problem"))
      .toContain("cannot change while you have open positions or orders");
    await page.keyboard.press("Escape");
    await page.getByTestId("futures-tab-open").click();
    await page.getByTestId("futures-cancel").click();
    await expect
      .poll(() => page.getByTestId("futures-open-orders").locator("tr[data-order-id]").count())
      .toBe(0);

    // The phone bar under the page speaks one-way (buy/sell) until hedge mode, then open long/short.
    const phoneBar = () => page.getByTestId("futures-phone-actions").locator("button").allTextContents();
    expect(await phoneBar()).toEqual(["Buy / Long", "Sell / Short"]);
    await page.getByTestId("position-mode-open").click();
    await page.getByTestId("position-mode-hedge").check();
    await page.getByTestId("position-mode-submit").click();
    await expect.poll(() => textOf(page, "futures-notice")).toBe("Hedge mode is on.");
    expect(await textOf(page, "position-mode-open")).toBe("Hedge");
    await expect.poll(phoneBar).toEqual(["Open Long", "Open Short"]);

    // Isolated 25x: open a long and a short of 0.01 BTC at market: two rows, one per side.
    await page.getByTestId("margin-mode-isolated").click();
    await expect
      .poll(() => page.getByTestId("margin-mode-isolated").getAttribute("aria-pressed"))
      .toBe("true");
    await page.getByTestId("leverage-25").click();
    await expect.poll(() => textOf(page, "leverage-value")).toBe("25x");
    await page.getByTestId("futures-type-market").click();
    await page.getByTestId("futures-qty").fill("0.01");
    await page.getByTestId("futures-hedge-open-long").click();
    await expect.poll(() => textOf(page, "futures-notice")).toBe("Order filled.");
    await page.getByTestId("futures-hedge-open-short").click();
    await page.getByTestId("futures-tab-positions").click();
    const table = page.getByTestId("positions-table");
    await expect.poll(() => table.locator('tr[data-symbol="BTCUSDT"]').count(), LIVE).toBe(2);
    expect(await table.locator('tr[data-side="LONG"] [data-testid="position-size"]').textContent()).toBe(
      "0.010",
    );
    expect(await table.locator('tr[data-side="SHORT"] [data-testid="position-size"]').textContent()).toBe(
      "-0.010",
    );

    // Adjust the long's isolated margin: +20 USDT, its liquidation price moves down.
    const positions = await paper<FuturesPosition[]>(page, "GET", FuturesPath.POSITIONS);
    const long = positions.find((p) => p.positionSide === "LONG");
    if (long === undefined) throw new Error("no long");
    await table.locator('tr[data-side="LONG"]').getByTestId("position-adjust-margin").click();
    await page.getByTestId("adjust-margin-dialog").waitFor();
    await expect.poll(() => textOf(page, "adjust-margin-liq")).toBe(long.liquidationPrice);
    await page.getByTestId("adjust-margin-amount").fill("20");
    await expect.poll(() => textOf(page, "adjust-margin-liq-after")).toMatch(/^\d+\.\d$/);
    const estimate = Number(await textOf(page, "adjust-margin-liq-after"));
    expect(estimate).toBeLessThan(Number(long.liquidationPrice));
    await page.getByTestId("adjust-margin-submit").click();
    await page.getByTestId("adjust-margin-dialog").waitFor({ state: "detached" });
    const after = async () =>
      (await paper<FuturesPosition[]>(page, "GET", FuturesPath.POSITIONS)).find(
        (p) => p.positionSide === "LONG",
      );
    await expect.poll(async () => Number((await after())?.margin)).toBeCloseTo(Number(long.margin) + 20, 6);
    expect(Number((await after())?.liquidationPrice)).toBeLessThan(Number(long.liquidationPrice));
    const longRow = table.locator('tr[data-side="LONG"]');
    await expect
      .poll(async () =>
        Number(((await longRow.getByTestId("position-margin").textContent()) ?? "").replace(/,/g, "")),
      )
      .toBeCloseTo(Number(long.margin) + 20, 1);
    await expect
      .poll(
        async () => ((await longRow.getByTestId("position-liq").textContent()) ?? "").replace(/,/g, ""),
        LIVE,
      )
      .toBe((await after())?.liquidationPrice);

    // Removing more than the position can spare is refused with the most it can spare.
    await longRow.getByTestId("position-adjust-margin").click();
    const reduce = page.getByTestId("adjust-margin-reduce");
    await clickUntil(reduce, async () => (await reduce.getAttribute("aria-selected")) === "true");
    await page.getByTestId("adjust-margin-amount").fill("5000");
    await page.getByTestId("adjust-margin-submit").click();
    await expect
      .poll(() => textOf(page, "adjust-margin-problem"))
      .toMatch(/^You can remove at most [\d,.]+ USDT\.$/);
  });
});
