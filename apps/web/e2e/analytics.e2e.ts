/**
 * The analytics dashboard (/analytics) in a real browser against the production server:
 * refused to anonymous visitors; after a visitor browses tracked pages (the site's SDK
 * uploads to the real ingest), an administrator finds those visits in the headline
 * figures, the top pages, the tracked page ids and the expose -> click table, a language
 * filter without visits shows no data, and the page renders right to left in Arabic.
 */
import { describe, expect, test } from "vitest";
import { createAdmin, loginThroughPage } from "./account-flows.ts";
import { newPage, type Page, serverAndBrowser } from "./harness.ts";

const REPORT = "/v1/buried/log/info";
/**
 * Headless Chromium says so in its user agent, and the ingest flags such visits as bots
 * (left out of every figure): the visitor uses a desktop Chrome's agent.
 */
const VISITOR_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";
const adminEmail = `analytics-${Date.now()}@example.com`;
const adminPassword = "analytics-password-1";

const run = serverAndBrowser(
  {},
  {
    timeout: 120_000,
    setup: (server) => createAdmin(server.dataDir, adminEmail, adminPassword),
  },
);

async function loginAsAdmin(path: string): Promise<Page> {
  const page = await newPage(run.browser);
  await loginThroughPage(page, run.server.url, { email: adminEmail, password: adminPassword }, path);
  return page;
}

/** Opens `path` and waits until the SDK's upload of its events was answered. */
async function visit(page: Page, path: string): Promise<void> {
  const uploaded = page.waitForResponse((r) => r.url().endsWith(REPORT) && r.ok(), { timeout: 20_000 });
  await page.goto(`${run.server.url}${path}`);
  await uploaded;
}

/** The number a KPI card shows (digits only: "1,234" -> 1234). */
async function kpi(page: Page, key: string): Promise<number> {
  const text = (await page.locator(`[data-kpi="${key}"] .an-kpi-value`).textContent()) ?? "";
  return Number(text.replace(/\D/g, ""));
}

/** The text of each row of the table in the card titled `title`. */
async function tableRows(page: Page, title: string): Promise<string[]> {
  const card = page.locator("section.an-card", { has: page.getByRole("heading", { name: title }) });
  return card.locator("tbody tr").allTextContents();
}

describe("analytics dashboard", () => {
  test("anonymous visitors get 401 and the administrators-only notice, no figures", async () => {
    const page = await newPage(run.browser, { allowErrors: ["Failed to load resource"] });
    const response = await page.goto(`${run.server.url}/analytics`);
    expect(response?.status()).toBe(401);
    expect(await page.getByRole("alert").textContent()).toContain("administrator");
    expect(await page.locator("[data-kpi]").count()).toBe(0);
  });

  test("a visitor's pages, page ids and exposed elements show up for the administrator", async () => {
    const visitor = await newPage(run.browser, { context: { userAgent: VISITOR_AGENT } });
    await visit(visitor, "/en/telegram-apps");
    await visit(visitor, "/en/airdrops/list");
    // the airdrop rows (b9401) are exposed once they are on screen; the loop sends them
    const exposed = visitor.waitForResponse(
      (r) => r.url().endsWith(REPORT) && r.ok() && (r.request().postData() ?? "").includes('"b9401"'),
      { timeout: 20_000 },
    );
    await visitor.mouse.wheel(0, 400);
    await exposed;

    const admin = await loginAsAdmin("/analytics");
    await expect.poll(() => kpi(admin, "pageViews"), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(await kpi(admin, "visitors")).toBeGreaterThanOrEqual(1);
    expect(await kpi(admin, "sessions")).toBeGreaterThanOrEqual(1);

    const pages = await tableRows(admin, "Top pages");
    expect(pages.some((row) => row.includes("/telegram-apps"))).toBe(true);
    expect(pages.some((row) => row.includes("/airdrops/list"))).toBe(true);
    const ids = await tableRows(admin, "Tracked pages");
    expect(ids.some((row) => row.startsWith("b9332"))).toBe(true);
    const elements = await tableRows(admin, "Exposes and clicks per element");
    expect(elements.some((row) => row.startsWith("b9401"))).toBe(true);

    // a language nobody browsed in: no figures, the empty note in the tables
    await admin.locator('select[name="lang"]').selectOption("ja");
    await Promise.all([admin.waitForURL(/lang=ja/), admin.getByRole("button", { name: "Apply" }).click()]);
    await expect.poll(() => kpi(admin, "pageViews"), { timeout: 10_000 }).toBe(0);
    expect(await tableRows(admin, "Top pages")).toEqual([]);
    expect(await admin.getByText("No data").count()).toBeGreaterThan(0);
  });

  test("renders right to left in Arabic with the same figures", async () => {
    const admin = await loginAsAdmin("/ar/analytics");
    expect(await admin.locator("html").getAttribute("dir")).toBe("rtl");
    expect(await admin.locator("[data-kpi]").count()).toBe(6);
    expect(await kpi(admin, "pageViews")).toBeGreaterThanOrEqual(2);
  });
});
