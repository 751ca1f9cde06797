/**
 * Issue 31, "loading states on every card that loads after paint": a paper trader's pages
 * while their account reads are held show the loading placeholder, never an empty list or
 * a balance of 0; when the reads fail they show LoadError, whose retry loads the data.
 */
import { expect, test } from "vitest";
import { apiLogin, E2E_PASSWORD, registerThroughPages } from "./account-flows.ts";
import { newPage, type Page, serverAndBrowser } from "./harness.ts";

const run = serverAndBrowser(
  { env: { LOGIN_ALLOW_PLAIN: "true" }, readyTimeoutMs: 120_000 },
  { timeout: 150_000 },
);
const allowErrors = ["get user info error", "hydrated but some attributes", "Failed to load resource"];
/** The paper account's reads: what these pages load after their first paint. */
const PAPER_READS = "**/v1/paper/**";

/** Setup writes from a plain-login session of the same user (the page's session is key-bound). */
async function paperWrite(email: string, path: string, data: unknown): Promise<void> {
  // A plain fetch is a browser new to the account: apiLogin answers the mailed code.
  const cookie = await apiLogin(run.server.url, email, E2E_PASSWORD);
  const res = await fetch(`${run.server.url}${path}`, {
    method: "POST",
    headers: {
      cookie,
      origin: run.server.url,
      paptrading: "1",
      "content-type": "application/json",
    },
    body: JSON.stringify(data),
  });
  const body = (await res.json()) as { code: string; msg: string };
  if (body.code !== "00000") throw new Error(`${path}: ${body.code} ${body.msg}`);
}

async function traderPage(): Promise<Page> {
  const page = await newPage(run.browser, { allowErrors });
  page.setDefaultTimeout(30_000);
  const email = `loading${Date.now()}@example.com`;
  await registerThroughPages(page, run.server.url, email);
  await paperWrite(email, "/v1/paper/account/activate", {});
  // An open order far from the market: "No open orders" would be a wrong answer.
  await paperWrite(email, "/v1/paper/orders", {
    symbol: "BTCUSDT",
    side: "SELL",
    type: "LIMIT",
    price: "999999",
    quantity: "0.001",
  });
  await page.context().addInitScript(() => {
    localStorage.setItem("simulation-trade", "1");
    localStorage.setItem("skipGuide", "1");
  });
  return page;
}

/** Holds every GET of the paper account until the returned release is called. */
async function holdReads(page: Page): Promise<() => Promise<void>> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(PAPER_READS, async (route) => {
    if (route.request().method() !== "GET") return route.continue();
    await released;
    await route.continue().catch(() => undefined);
  });
  return async () => {
    release();
    await page.unroute(PAPER_READS);
  };
}

const PAGES: { path: string; empty: RegExp; loaded: (page: Page) => Promise<unknown> }[] = [
  {
    path: "/spot/BTCUSDT",
    empty: /No open orders/,
    loaded: (page) =>
      page.getByTestId("open-orders").locator("tbody tr").filter({ hasText: "999,999" }).waitFor(),
  },
  {
    path: "/asset",
    empty: /0\.00 USDT|No balances/,
    loaded: (page) => page.getByTestId("asset-total-USDT").waitFor(),
  },
  {
    path: "/asset/spot",
    empty: /0\.00 USDT|No balances/,
    loaded: (page) => page.getByTestId("asset-total-USDT").waitFor(),
  },
  {
    path: "/record/exchange?tab=open",
    empty: /No orders yet/,
    loaded: (page) =>
      page.getByTestId("records-orders").locator("tbody tr").filter({ hasText: "999,999" }).waitFor(),
  },
];

test("account pages show a placeholder while their reads are held, then the data", {
  timeout: 300_000,
}, async () => {
  const page = await traderPage();
  for (const { path, empty, loaded } of PAGES) {
    const release = await holdReads(page);
    await page.goto(`${run.server.url}${path}`);
    await page.locator('[data-testid="loading"]').first().waitFor();
    // What a person sees (innerText): the page's script data holds every string of the page.
    // biome-ignore lint/performance/useDomNodeTextContent: textContent includes hidden text and scripts.
    const text = await page.locator("body").innerText();
    expect(text, `${path} while loading`).not.toMatch(empty);
    await release();
    await loaded(page);
    expect(await page.locator('[data-testid="loading"]').count(), `${path} once loaded`).toBe(0);
  }
});

test("a failed read shows LoadError, and its retry loads the data", { timeout: 300_000 }, async () => {
  const page = await traderPage();
  for (const { path, loaded } of PAGES) {
    await page.route(PAPER_READS, (route) =>
      route.request().method() === "GET"
        ? route.fulfill({
            status: 500,
            contentType: "application/json",
            body: JSON.stringify({ code: "50000", msg: "down", data: null }),
          })
        : route.continue(),
    );
    await page.goto(`${run.server.url}${path}`);
    const error = page.getByTestId("load-error").first();
    await error.waitFor();
    expect(await page.locator('[data-testid="loading"]').count(), `${path} after failing`).toBe(0);
    await page.unroute(PAPER_READS);
    await error.getByRole("button").click();
    await loaded(page);
    await expect.poll(() => page.getByTestId("load-error").count()).toBe(0);
  }
});
