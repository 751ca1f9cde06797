/**
 * Proof of reserves from day one: a fresh server took an (empty) snapshot at its first
 * start and the page says so and when the next is due; the footer links to it. A new
 * user who opens a paper account reaches the page from /asset, finds their leaf in a
 * scheduled snapshot (every 5 s here, POR_SNAPSHOT_INTERVAL_MS; ten minutes by default)
 * and verifies it in the browser with the steps the page shows.
 */
import { describe, expect, test } from "vitest";
import { registerThroughPages } from "./account-flows.ts";
import { newPage, serverAndBrowser } from "./harness.ts";

const run = serverAndBrowser({ env: { DEV_OUTBOX: "true", POR_SNAPSHOT_INTERVAL_MS: "5000" } });

/** Logged-out pages log the spec's "get user info error"; the shell's nonce trips a hydration warning (see accounts.e2e.ts). */
const allowErrors = ["get user info error", "hydrated but some attributes"];

describe("proof of reserves", () => {
  test("an empty first snapshot reads as empty, with the next one's time; the footer links to the page", async () => {
    const page = await newPage(run.browser, { allowErrors });
    await page.goto(`${run.server.url}/airdrops`);
    await page.locator("footer").getByRole("link", { name: "Proof of reserves" }).click();
    await page.waitForURL(/\/proof-of-reserves$/);
    // Every snapshot so far is empty: no account holds anything before the first paper account.
    await page.getByTestId("por-empty").waitFor();
    expect(await page.getByTestId("por-root-hash").count()).toBe(0);
    expect(await page.getByTestId("por-reserves").count()).toBe(0);
    await expect
      .poll(async () => (await page.getByTestId("por-next").textContent()) ?? "")
      .toMatch(/^Next snapshot at \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  });

  test("a new user's account is in a snapshot within the interval and verifies in the browser", async () => {
    const page = await newPage(run.browser, { allowErrors });
    await registerThroughPages(page, run.server.url, `por${Date.now()}@example.com`);
    await page.context().addInitScript(() => localStorage.setItem("skipGuide", "1"));
    await page.goto(`${run.server.url}/spot/BTCUSDT`);
    await page.getByTestId("enter-simulation").first().click();
    await page.getByTestId("simulation-badge").waitFor();

    await page.goto(`${run.server.url}/asset`);
    await page.getByTestId("assets-por-link").click();
    await page.waitForURL(/\/proof-of-reserves$/);
    // The next scheduled snapshot takes the new paper account in: reload until the page has the leaf.
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByTestId("por-page").waitFor();
          await page.locator('[data-testid="por-my-proof"], [data-testid="por-no-leaf"]').first().waitFor();
          return page.getByTestId("por-my-proof").count();
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    expect(await page.getByTestId("por-accounts").textContent()).not.toBe("0");
    expect(await page.getByTestId("por-steps").locator("li").count()).toBe(4);
    await page.getByTestId("por-verify").click();
    const result = page.getByTestId("por-verify-result");
    await result.waitFor();
    expect(await result.getAttribute("data-ok")).toBe("1");
    expect(await result.textContent()).toContain("included in the published root");
  });

  test("a bare sign-up, never in simulation trading, is in the next snapshot", async () => {
    const page = await newPage(run.browser, { allowErrors });
    await registerThroughPages(page, run.server.url, `por-bare${Date.now()}@example.com`);
    // Asking for the proof opens the paper account (with the starting balances) if nothing
    // had yet: the next scheduled snapshot takes it in.
    await page.goto(`${run.server.url}/proof-of-reserves`);
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByTestId("por-page").waitFor();
          await page.locator('[data-testid="por-my-proof"], [data-testid="por-no-leaf"]').first().waitFor();
          return page.getByTestId("por-my-proof").count();
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    await page.getByTestId("por-verify").click();
    const result = page.getByTestId("por-verify-result");
    await result.waitFor();
    expect(await result.getAttribute("data-ok")).toBe("1");
  });
});
