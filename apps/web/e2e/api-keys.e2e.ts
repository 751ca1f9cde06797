/**
 * `/account/newapi` in a real browser: create a key (the secret shown once), use it from a
 * bot's side (a Bitget-signed `/api/v2` call), edit its IP list, delete it; the page in
 * Arabic, dark, on a phone.
 */
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { registerThroughPages } from "./account-flows.ts";
import { chooseOption, clickUntilGone } from "./antd.ts";
import {
  type Browser,
  launchBrowser,
  newPage,
  type Page,
  type RunningServer,
  startServer,
} from "./harness.ts";

let server: RunningServer;
let browser: Browser;

// NOTE: a generous start time: on a loaded shared machine the production server can take over 30 s.
beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({ env: { DEV_OUTBOX: "true" }, readyTimeoutMs: 120_000 }),
    launchBrowser(),
  ]);
}, 150_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const allowErrors = ["get user info error", "hydrated but some attributes"];

/** A signed GET as a Bitget client (ccxt) sends it. */
async function bitgetGet(path: string, key: { apiKey: string; secret: string; passphrase: string }) {
  const ts = String(Date.now());
  const sign = crypto.createHmac("sha256", key.secret).update(`${ts}GET${path}`).digest("base64");
  const res = await fetch(`${server.url}${path}`, {
    headers: {
      "ACCESS-KEY": key.apiKey,
      "ACCESS-SIGN": sign,
      "ACCESS-TIMESTAMP": ts,
      "ACCESS-PASSPHRASE": key.passphrase,
      PAPTRADING: "1",
    },
  });
  return (await res.json()) as { code: string; data: unknown };
}

/** Fills the create form's label and passphrase, submits, and reads the key and secret shown once. */
async function createThroughForm(page: Page, label: string) {
  await page.getByTestId("key-label").fill(label);
  await page.getByTestId("key-passphrase").fill("Passphrase123");
  await page.getByTestId("api-key-create-submit").click();
  const secretEl = page.getByTestId("created-secret");
  await secretEl.waitFor({ timeout: 10_000 });
  const secret = ((await secretEl.textContent()) ?? "").trim();
  const apiKey = ((await page.getByTestId("created-api-key").textContent()) ?? "").trim();
  return { secret, apiKey, secretEl };
}

describe("API keys page", () => {
  test("create, use from a bot, edit the IP list, delete", async () => {
    const page = await newPage(browser, { allowErrors });
    await registerThroughPages(page, server.url, `keys${Date.now()}@example.com`);
    await page.goto(`${server.url}/account/newapi`);
    await page.waitForLoadState("networkidle");
    await expect.poll(() => page.getByTestId("api-key-empty").count(), { timeout: 15_000 }).toBe(1);

    await page.getByTestId("perm-spot_trade").click();
    const { secret, apiKey, secretEl } = await createThroughForm(page, "grid bot");
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(apiKey).toMatch(/^bg_[0-9a-f]{32}$/);
    // The secret is not on the page any more once the dialog has closed.
    await clickUntilGone(page.getByTestId("api-key-created-done"), secretEl);
    await expect.poll(() => page.getByTestId("api-key").count()).toBe(1);
    expect(await page.content()).not.toContain(secret);

    const assets = await bitgetGet("/api/v2/spot/account/assets", {
      apiKey,
      secret,
      passphrase: "Passphrase123",
    });
    expect(assets.code).toBe("00000");
    expect(assets.data).toEqual(expect.arrayContaining([expect.objectContaining({ coin: "USDT" })]));

    await page.getByTestId("api-key-edit").click();
    await page.getByTestId("api-key-edit-form").getByTestId("key-ips").fill("198.51.100.7\n10.0.0.0/8");
    await page.getByTestId("api-key-edit-form-submit").click();
    await expect.poll(() => page.getByTestId("api-key-ips").textContent()).toBe("198.51.100.7, 10.0.0.0/8");
    // This machine is not on the list any more: the bot is refused with Bitget's "Invalid IP".
    const fenced = await bitgetGet("/api/v2/spot/account/assets", {
      apiKey,
      secret,
      passphrase: "Passphrase123",
    });
    expect(fenced.code).toBe("40018");

    await page.getByTestId("api-key-delete").click();
    await page.getByTestId("api-key-delete-confirm").click();
    await expect.poll(() => page.getByTestId("api-key-empty").count()).toBe(1);
    const gone = await bitgetGet("/api/v2/spot/account/assets", {
      apiKey,
      secret,
      passphrase: "Passphrase123",
    });
    expect(gone.code).toBe("40006");
  });

  test("a key made for a sub-account trades the sub's balance", async () => {
    const page = await newPage(browser, { allowErrors });
    await registerThroughPages(page, server.url, `keysub${Date.now()}@example.com`);
    await page.goto(`${server.url}/subaccount/manage`);
    await page.getByTestId("sub-page").waitFor({ timeout: 15_000 });
    await page.getByTestId("sub-name").fill("keybot1");
    await page.getByTestId("sub-label").fill("Key bot");
    await page.getByTestId("sub-create").click();
    const card = page.getByTestId("sub-card");
    await card.waitFor({ timeout: 15_000 });
    await card.getByTestId("sub-transfer").click();
    await page.getByTestId("sub-transfer-amount").fill("1000");
    await page.getByTestId("sub-transfer-submit").click();
    await page.getByTestId("sub-history").waitFor({ timeout: 15_000 });

    await page.goto(`${server.url}/account/newapi`);
    await page.getByTestId("api-keys-page").waitFor({ timeout: 15_000 });
    await chooseOption(page, page.getByTestId("key-owner"), "Key bot");
    const { secret, apiKey } = await createThroughForm(page, "sub bot");
    await clickUntilGone(page.getByTestId("api-key-created-done"), page.getByTestId("api-key-created"));
    await expect.poll(() => page.getByTestId("api-key-owner").textContent()).toBe("Key bot");

    // The bot sees the sub's 1,000 USDT, not the main account's starting balance.
    const assets = await bitgetGet("/api/v2/spot/account/assets", {
      apiKey,
      secret,
      passphrase: "Passphrase123",
    });
    expect(assets.code).toBe("00000");
    const usdt = (assets.data as { coin: string; available: string }[]).find((a) => a.coin === "USDT");
    expect(Number(usdt?.available)).toBe(1000);
  });

  test("Arabic, dark, phone: right-to-left, withdraw never offered, bad IPs refused in the form", async () => {
    const page = await newPage(browser, {
      locale: "ar",
      colorScheme: "dark",
      viewport: { width: 390, height: 844 },
      allowErrors,
    });
    await registerThroughPages(page, server.url, `keysar${Date.now()}@example.com`);
    await page.goto(`${server.url}/ar/account/newapi?appTheme=dark`);
    await page.waitForLoadState("networkidle");
    await page.getByTestId("api-keys-page").waitFor({ timeout: 15_000 });
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    // On the page itself: the user menu (closed) has an "API keys" entry of the same words.
    expect(await page.getByTestId("api-keys-page").getByText("مفاتيح API").first().isVisible()).toBe(true);
    const withdraw = page.locator('input[type="checkbox"][value="withdraw"]');
    expect(await withdraw.isDisabled()).toBe(true);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await page.getByTestId("key-label").fill("bot");
    await page.getByTestId("key-passphrase").fill("Passphrase123");
    await page.getByTestId("key-ips").fill("300.1.1.1");
    await page.getByTestId("api-key-create-submit").click();
    await expect.poll(() => page.locator(".ant-form-item-explain-error").count()).toBeGreaterThan(0);
    expect(await page.getByTestId("api-key-empty").count()).toBe(1);
  });
});
