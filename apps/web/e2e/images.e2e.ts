import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { expect, test } from "vitest";
import { createAdmin, loginThroughPage } from "./account-flows.ts";
import { newPage, serverAndBrowser } from "./harness.ts";

const adminEmail = `images-admin-${Date.now()}@example.com`;
const adminPassword = "admin-password-1";

const run = serverAndBrowser(
  { env: { SEED_DEMO_DATA: "1" } },
  { timeout: 120_000, setup: (server) => createAdmin(server.dataDir, adminEmail, adminPassword) },
);

/** Screenshots for people to look at when SHOTS_DIR is set (not an assertion). */
const shotsDir = process.env.SHOTS_DIR;

test("an airdrop detail page shows its cover and logo with srcset, served as immutable WebP", async () => {
  const page = await newPage(run.browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${run.server.url}/airdrops/notcoin`);
  const cover = page.locator("img.ad-cover");
  await cover.waitFor({ timeout: 30_000 });
  const srcset = (await cover.getAttribute("srcset")) ?? "";
  expect(srcset).toMatch(/\/v1\/media\/[a-f0-9]{32}-480\.webp 480w/);
  expect(srcset).toMatch(/1600w$/);
  expect(await cover.getAttribute("sizes")).toContain("760px");
  // The generated artwork is rendered by the pipeline on first request: it must decode.
  await page.waitForFunction(
    () => {
      const img = document.querySelector<HTMLImageElement>("img.ad-cover");
      return img?.complete === true && img.naturalWidth > 0;
    },
    undefined,
    { timeout: 60_000 },
  );
  const logo = page.locator(".ad-detail-head img.ad-avatar-img");
  expect(await logo.getAttribute("srcset")).toContain("64w");
  const current = await cover.evaluate((img: HTMLImageElement) => img.currentSrc);
  const res = await fetch(current);
  expect(res.headers.get("content-type")).toBe("image/webp");
  expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  if (shotsDir) await page.screenshot({ path: path.join(shotsDir, "airdrop-detail-light-desktop.png") });
});

test("an administrator uploads a logo in the airdrop editor; the page shows it, signed calls only", async () => {
  const page = await newPage(run.browser, { allowErrors: ["Failed to load resource"] });
  await loginThroughPage(
    page,
    run.server.url,
    { email: adminEmail, password: adminPassword },
    "/admin/airdrops",
  );
  // The airdrops table's Blum row: the one with a cell reading exactly its ticker.
  const row = page
    .locator("tr.ant-table-row")
    .filter({ has: page.getByText("BLUM", { exact: true }) })
    .first();
  await row.getByRole("button", { name: "Edit" }).click();
  const editor = page.getByTestId("media-editor");
  await editor
    .locator(".media-thumb img")
    .first()
    .waitFor({ timeout: 30_000 })
    .catch(async (e: unknown) => {
      if (shotsDir)
        await page.screenshot({ path: path.join(shotsDir, "admin-editor-failed.png"), fullPage: true });
      throw e;
    });
  const png = await sharp({ create: { width: 512, height: 512, channels: 3, background: "#e11d48" } })
    .png()
    .toBuffer();
  const answer = page.waitForResponse((r) => r.url().includes("/v1/admin/media/uploads"));
  await editor
    .getByTestId("media-upload-logo")
    .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png });
  const uploaded = (await (await answer).json()) as { code: string; data: { id: string } };
  expect(uploaded.code).toBe("00000");
  await expect
    .poll(() => editor.locator(".media-thumb img").first().getAttribute("src"), { timeout: 30_000 })
    .toContain(uploaded.data.id);
  // The same call without the device signature is refused: the routes are signed.
  const unsigned = await page.evaluate(async () => {
    const res = await fetch("/v1/admin/media/links/airdrop/blum", { method: "GET" });
    return ((await res.json()) as { code: string }).code;
  });
  expect(unsigned).toBe("00020");
  const visitor = await newPage(run.browser);
  await visitor.goto(`${run.server.url}/airdrops/blum`);
  expect(await visitor.locator(".ad-detail-head img.ad-avatar-img").getAttribute("srcset")).toContain(
    uploaded.data.id,
  );
});

test.skipIf(shotsDir === undefined)(
  "content pages look right in light and dark, desktop and phone",
  async () => {
    if (shotsDir === undefined) return;
    fs.mkdirSync(shotsDir, { recursive: true });
    const pages = [
      ["airdrop-list", "/airdrops/list"],
      ["apps-list", "/telegram-apps"],
      ["app-detail", "/telegram-apps/wallet"],
      ["app-detail-game", "/telegram-apps/tonchess"],
    ] as const;
    for (const scheme of ["light", "dark"] as const)
      for (const [device, viewport] of [
        ["desktop", { width: 1280, height: 900 }],
        ["phone", { width: 390, height: 844 }],
      ] as const)
        for (const [name, url] of pages) {
          const page = await newPage(run.browser, {
            colorScheme: scheme,
            viewport,
            cookies: { url: run.server.url, values: { theme: scheme === "dark" ? "black" : "white" } },
          });
          await page.goto(`${run.server.url}${url}`);
          await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => undefined);
          await page.evaluate(() => window.scrollTo(0, 0));
          await page.screenshot({ path: path.join(shotsDir, `${name}-${scheme}-${device}.png`) });
          await page.close();
        }
  },
  600_000,
);
