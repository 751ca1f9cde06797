/**
 * Coin-margined (inverse) perpetuals on paper in a real browser against the real server
 * (issue 34): every listed contract's page under the language prefixes, the USDT-M |
 * COIN-M switch, the site's 404 for an unknown symbol; then a user moves BTC from spot
 * into the BTC coin-M wallet, opens a 25x BTCUSD long in contracts, sees its PnL (on a
 * mark pinned through the test endpoint, FUTURES_TEST_MARKS=1) and liquidation price in
 * BTC and USD, adjusts the leverage and closes it; /record/mcp names the coin of its
 * rows, and /asset/futures's wallet-transfer dialog moves BTC into the coin-M wallet.
 */
import { type FuturesAccount, FuturesPath, type FuturesPosition } from "@meridian/contracts";
import { COIN_PERP_CONTRACTS } from "@meridian/domain";
import { describe, expect, test } from "vitest";
import { paper, registerThroughPages, textOf } from "./account-flows.ts";
import { clickUntil, motionEnded } from "./antd.ts";
import { newPage, type Page, serverAndBrowser } from "./harness.ts";

const run = serverAndBrowser({ env: { FUTURES_TEST_MARKS: "1" } });

/** As futures.e2e.ts: logged-out pages log "get user info error"; the shell's nonce a hydration warning. */
const allowErrors = ["get user info error", "hydrated but some attributes"];
/** Positions and the account reach the page once a second over /v1/ws/futures. */
const LIVE = { timeout: 10_000 };

const pinMark = (page: Page, price: string | null) =>
  paper(page, "POST", FuturesPath.TEST_MARK, { symbol: "BTCUSD", price });

async function position(page: Page): Promise<FuturesPosition | undefined> {
  const list = await paper<FuturesPosition[]>(page, "GET", `${FuturesPath.POSITIONS}?family=coin`);
  return list.find((p) => p.symbol === "BTCUSD");
}

/** BTC at its 8 ledger decimals, as the page prints it ("0.00181818 BTC"). */
const btc = (v: number) => `${v.toFixed(8)} BTC`;

describe("coin-margined futures pages", () => {
  test("every contract's page, the family switch, the default page and the 404", async () => {
    // The two 404 pages log their own status as a console line of the browser's.
    const page = await newPage(run.browser, { allowErrors: [...allowErrors, "status of 404"] });
    for (const c of COIN_PERP_CONTRACTS) {
      const res = await page.goto(`${run.server.url}/futures/coin/${c.symbol}`);
      expect(res?.status(), c.symbol).toBe(200);
      expect(await page.title()).toContain(c.symbol);
    }
    await page.goto(`${run.server.url}/futures/coin/BTCUSD`);
    await page.waitForLoadState("networkidle");
    await page.getByTestId("futures-login-prompt").waitFor();
    expect(await page.getByTestId("futures-family-coin").getAttribute("aria-current")).toBe("page");
    expect(await page.getByTestId("futures-family-usdt").getAttribute("href")).toBe("/futures/usdt/BTCUSDT");
    // The contract's own mark (USD, its 0.1 tick) beside the coin's market.
    await expect.poll(() => textOf(page, "mark-price")).toMatch(/^\d{1,3}(,\d{3})*\.\d$/);
    expect(await page.getByTestId("book-ask").count()).toBeGreaterThan(5);

    // From the USDT-M page the switch goes to the same coin's coin-M contract.
    await page.goto(`${run.server.url}/futures/usdt/ETHUSDT`);
    await page.getByTestId("futures-family-coin").click();
    await page.waitForURL(`${run.server.url}/futures/coin/ETHUSD`);

    // Arabic: the prefix stays, the page is right to left, the title names the contract.
    await page.goto(`${run.server.url}/ar/futures/coin/SOLUSD`);
    expect(await page.getAttribute("html", "dir")).toBe("rtl");
    expect(await page.title()).toContain("SOLUSD");
    expect(await page.getByTestId("futures-family-usdt").getAttribute("href")).toBe(
      "/ar/futures/usdt/SOLUSDT",
    );

    await page.goto(`${run.server.url}/ja/futures/coin`);
    await page.waitForURL(`${run.server.url}/ja/futures/coin/BTCUSD`);
    const missing = await page.goto(`${run.server.url}/futures/coin/BTCUSDT`);
    expect(missing?.status()).toBe(404);
    expect((await page.goto(`${run.server.url}/futures/coin/NOPEUSD`))?.status()).toBe(404);
  });

  test("transfer BTC in, a 25x BTCUSD long in contracts, PnL and liquidation in BTC, leverage, close", async () => {
    const page = await newPage(run.browser, { allowErrors });
    await registerThroughPages(page, run.server.url, `coinm${Date.now()}@example.com`);
    await page.context().addInitScript(() => localStorage.setItem("skipGuide", "1"));
    await page.goto(`${run.server.url}/futures/coin/BTCUSD`);
    await page.waitForLoadState("networkidle");
    const accept = page.getByTestId("futures-agreement-accept");
    await accept.waitFor();
    await clickUntil(accept, async () => !(await accept.isVisible()));
    await page.getByTestId("enter-simulation").first().click();
    await page.getByTestId("simulation-badge").waitFor();
    // Entering simulation goes to the default futures page (docs/product.md §2); back to BTCUSD.
    await page.waitForURL(`${run.server.url}/futures/usdt/BTCUSDT`);
    await page.goto(`${run.server.url}/futures/coin/BTCUSD`);
    await page.getByTestId("simulation-badge").waitFor();
    await expect.poll(() => textOf(page, "futures-wallet"), { timeout: 15_000 }).toBe("0.00000000 BTC");

    // Spot -> the BTC coin-M wallet through its own dialog, which names the coin.
    await page.getByTestId("futures-transfer-open").click();
    await page.getByTestId("coin-transfer").waitFor();
    await motionEnded(page);
    expect(await textOf(page, "transfer-to")).toBe("BTC futures wallet");
    await expect.poll(() => textOf(page, "transfer-available")).toBe("0.5 BTC");
    await page.getByTestId("transfer-amount").fill("0.1");
    const dialog = page.getByTestId("coin-transfer");
    await clickUntil(page.getByTestId("transfer-submit"), async () => !(await dialog.isVisible()));
    await expect.poll(() => textOf(page, "futures-wallet")).toBe("0.10000000 BTC");
    const account = await paper<FuturesAccount>(page, "GET", `${FuturesPath.ACCOUNT}?marginCoin=BTC`);
    expect(account).toMatchObject({ family: "coin", marginCoin: "BTC", wallet: "0.10000000" });

    // 25x, then 10 contracts (1,000 USD) at market: the cost line is in BTC, the size in contracts.
    await page.getByTestId("leverage-25").click();
    await expect.poll(() => textOf(page, "leverage-value")).toBe("25x");
    await page.getByTestId("futures-type-market").click();
    await page.getByTestId("futures-qty").fill("10");
    await expect.poll(() => textOf(page, "futures-margin-required")).toMatch(/^0\.000\d{5} BTC$/);
    expect(await textOf(page, "futures-max-size")).toMatch(/^\d{1,3}(,\d{3})* Cont\.$/);
    await page.getByTestId("futures-long").click();
    await expect.poll(() => textOf(page, "futures-notice")).toBe("Order filled.");
    const row = page.getByTestId("positions-table").locator('tr[data-symbol="BTCUSD"]');
    await row.waitFor(LIVE);
    expect(await row.getByTestId("position-size").textContent()).toBe("10 Cont.");
    const opened = await position(page);
    expect(opened).toMatchObject({ leverage: 25, marginCoin: "BTC", quantity: "10", marginMode: "cross" });
    const entry = Number(opened?.entryPrice);
    // Initial margin: 10 x 100 / entry / 25 BTC, shown at 8 decimals with the coin.
    expect(Number((await row.getByTestId("position-margin").textContent())?.replace(" BTC", ""))).toBeCloseTo(
      1000 / entry / 25,
      7,
    );

    // The mark 5,000 above the entry: PnL = 1,000 x (1/entry - 1/mark) BTC, rounded down.
    const up = Math.round(entry + 5000);
    await pinMark(page, String(up));
    const pnl = Math.floor(1000 * (1 / entry - 1 / up) * 1e8) / 1e8;
    await expect
      .poll(async () => (await row.getByTestId("position-pnl").textContent())?.split(" (")[0], LIVE)
      .toBe(btc(pnl));
    // The BTC wallet's unrealised PnL follows the mark too, pushed over /v1/ws/futures
    // (the page is not reloaded): what the server says about the wallet at that mark.
    const marked = await paper<FuturesAccount>(page, "GET", `${FuturesPath.ACCOUNT}?marginCoin=BTC`);
    expect(Number(marked.unrealisedPnl)).toBeGreaterThan(0);
    await expect.poll(() => textOf(page, "futures-upnl"), LIVE).toBe(btc(Number(marked.unrealisedPnl)));
    // The liquidation price (USD, the 0.1 tick) is the server's, below the entry for a long.
    const pinned = await position(page);
    const liq = pinned?.liquidationPrice ?? "";
    expect(Number(liq)).toBeLessThan(entry);
    await expect
      .poll(async () => ((await row.getByTestId("position-liq").textContent()) ?? "").replace(/,/g, ""), LIVE)
      .toBe(liq);

    // Adjust: 50x on the open (cross) position; its margin is its value at the mark over 50.
    await page.getByTestId("leverage-50").click();
    await expect.poll(() => textOf(page, "leverage-value")).toBe("50x");
    await expect.poll(async () => (await position(page))?.leverage, LIVE).toBe(50);
    await expect
      .poll(
        async () => Number((await row.getByTestId("position-margin").textContent())?.replace(" BTC", "")),
        LIVE,
      )
      .toBeCloseTo(1000 / up / 50, 7);

    // The USDT-M page does not list it.
    const usdt = await paper<FuturesPosition[]>(page, "GET", `${FuturesPath.POSITIONS}?family=usdt`);
    expect(usdt.some((p) => p.symbol === "BTCUSD")).toBe(false);

    // A market close realises the PnL into the BTC wallet.
    await page.getByTestId("position-close").click();
    await expect.poll(() => position(page), LIVE).toBeUndefined();
    await expect.poll(() => row.count(), LIVE).toBe(0);
    await page.getByTestId("futures-tab-trades").click();
    await expect
      .poll(() => page.getByTestId("futures-trades").locator("tbody tr").count(), LIVE)
      .toBeGreaterThanOrEqual(2);
    // The close fills at the book, not the pinned mark: the wallet is what the server says.
    const closed = await paper<FuturesAccount>(page, "GET", `${FuturesPath.ACCOUNT}?marginCoin=BTC`);
    expect(closed.wallet).not.toBe("0.10000000");
    await expect.poll(() => textOf(page, "futures-wallet"), LIVE).toBe(btc(Number(closed.wallet)));
    await pinMark(page, null);

    // /record/mcp names the coin of a coin-M row: its own column, PnL and fee in BTC.
    await page.goto(`${run.server.url}/record/mcp?tab=trades`);
    const trades = page.getByTestId("mcp-trades");
    const fill = trades.locator("tbody tr").filter({ hasText: "BTCUSD" }).first();
    await fill.waitFor();
    const heads = await trades.locator("thead th").allTextContents();
    const cells = await fill.locator("td").allTextContents();
    expect(cells[heads.indexOf("Margin coin")]).toBe("BTC");
    expect(cells[heads.indexOf("Fee")]).toMatch(/^0\.\d+ BTC$/);
    expect(cells[heads.indexOf("Realised PnL")]).toMatch(/^-?0\.\d{8} BTC$/);
    await page.getByTestId("mcp-tab-positions").click();
    const closedRow = page.getByTestId("mcp-positions").locator("tbody tr").filter({ hasText: "BTCUSD" });
    await closedRow.first().waitFor();
    expect(await closedRow.first().textContent()).toMatch(/BTCUSDBTC.*-?0\.\d{8} BTC/);

    // /asset/futures: the coin-M table's first column is the coin, and the wallet-transfer
    // dialog moves BTC from spot into the BTC coin-M wallet, naming it.
    await page.goto(`${run.server.url}/asset/futures`);
    const coinWallets = page.getByTestId("coin-wallets");
    await coinWallets.waitFor();
    expect(await coinWallets.locator("thead th").first().textContent()).toBe("Coin");
    await page.getByTestId("futures-transfer-open").click();
    const walletDialog = page.getByTestId("wallet-transfer");
    await walletDialog.waitFor();
    await motionEnded(page);
    await page.getByTestId("transfer-asset").selectOption("BTC");
    await expect
      .poll(() => page.getByTestId("transfer-to").locator("option:checked").textContent())
      .toBe("COIN-M futures (BTC)");
    await expect.poll(() => textOf(page, "transfer-available")).toMatch(/ BTC$/);
    await page.getByTestId("transfer-amount").fill("0.01");
    await clickUntil(page.getByTestId("transfer-submit"), async () => !(await walletDialog.isVisible()));
    const topped = btc((Math.round(Number(closed.wallet) * 1e8) + 1_000_000) / 1e8);
    await expect
      .poll(() => coinWallets.locator('tr[data-coin="BTC"]').getByTestId("coin-wallet-balance").textContent())
      .toBe(topped.replace(" BTC", ""));
    const after = await paper<FuturesAccount>(page, "GET", `${FuturesPath.ACCOUNT}?marginCoin=BTC`);
    expect(`${after.wallet} BTC`).toBe(topped);
  });
});
