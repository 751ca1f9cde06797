/**
 * The administrators' security reports list and page metadata editor in a real browser
 * against the production server: refused to anonymous visitors, reports sent by a page
 * show up with counts and filters, and a metadata row edited here becomes the title a
 * visitor's page carries.
 */
import { describe, expect, test } from "vitest";
import { createAdmin, loginThroughPage } from "./account-flows.ts";
import { newPage, type Page, serverAndBrowser } from "./harness.ts";

const adminEmail = `admin-${Date.now()}@example.com`;
const adminPassword = "admin-password-1";

const run = serverAndBrowser(
  {},
  {
    timeout: 120_000,
    setup: (server) => createAdmin(server.dataDir, adminEmail, adminPassword),
  },
);

async function loginAsAdmin(path: string, allowErrors: (string | RegExp)[] = []): Promise<Page> {
  const page = await newPage(run.browser, { allowErrors });
  await loginThroughPage(page, run.server.url, { email: adminEmail, password: adminPassword }, path);
  return page;
}

describe("security reports", () => {
  test("anonymous visitors get 401 and a login link, not the list", async () => {
    const page = await newPage(run.browser, { allowErrors: ["Failed to load resource"] });
    const response = await page.goto(`${run.server.url}/admin/security-reports`);
    expect(response?.status()).toBe(401);
    expect(await page.getByRole("alert").textContent()).toContain("Administrators only");
    expect(await page.getByRole("link", { name: "Log in" }).last().getAttribute("href")).toBe(
      "/login?redirect=%2Fadmin%2Fsecurity-reports",
    );
    expect(await page.locator("table").count()).toBe(0);
  });

  test("reports a page sends are listed with counts, browser and filters", async () => {
    const sender = await newPage(run.browser);
    await sender.goto(`${run.server.url}/`);
    const codes = await sender.evaluate(async () => {
      const out: string[] = [];
      for (const event of ["loginEncryptFailed", "initFailed", "loginEncryptFailed"]) {
        const res = await fetch("/v1/buried/log/cspSecurity", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            bizType: "gateway",
            data: { event, reason: `e2e ${event}` },
            timestamp: Date.now(),
            page: "/e2e-page",
          }),
        });
        out.push(((await res.json()) as { code: string }).code);
      }
      return out;
    });
    expect(codes).toEqual(["00000", "00000", "00000"]);

    const page = await loginAsAdmin("/admin/security-reports");
    await page.getByRole("heading", { name: "Security reports", level: 1 }).waitFor();
    const counts = page.locator(".at-counts li");
    await expect
      .poll(() => counts.allTextContents())
      .toEqual(expect.arrayContaining(["loginEncryptFailed2", "initFailed1"]));
    const rows = page.locator(".ant-table-tbody tr.ant-table-row");
    const e2eRows = rows.filter({ hasText: "/e2e-page" });
    expect(await e2eRows.count()).toBe(3);
    expect(await e2eRows.first().textContent()).toMatch(/Headless Chrome \d+ on Linux|Chrome \d+ on Linux/);

    // Filter by type with the form (works as a plain GET form too).
    await page.locator('select[name="event"]').selectOption("initFailed");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/event=initFailed/);
    await expect.poll(() => rows.filter({ hasText: "/e2e-page" }).count()).toBe(1);
    expect(await page.locator(".at-total").textContent()).toContain("1");
    expect(await page.locator('.at-counts a[aria-current="true"]').textContent()).toContain("initFailed");

    // A day with no reports.
    await page.goto(`${run.server.url}/admin/security-reports?from=2020-01-01&to=2020-01-02`);
    expect(await page.locator(".at-counts").textContent()).toContain("No reports match");
    // A bad filter is explained, never a server error.
    const bad = await page.goto(`${run.server.url}/admin/security-reports?from=2020-13-99x`);
    expect(bad?.status()).toBe(200);
    expect(await page.getByRole("alert").textContent()).toContain("These filters cannot be used");
  });
});

describe("page metadata", () => {
  test("an administrator adds a Japanese title and the Japanese page carries it; bad text is refused by field", async () => {
    // The refused save answers 400, which the browser logs.
    const page = await loginAsAdmin("/admin/page-meta", [/status of 400/]);
    await page.getByRole("heading", { name: "Page metadata", level: 1 }).waitFor();
    const rows = page.locator(".ant-table-tbody tr.ant-table-row");
    await expect.poll(() => rows.filter({ hasText: "airdrops.home" }).count()).toBeGreaterThan(0);

    await page.getByRole("button", { name: "Add a row" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Page").fill("airdrops.home");
    // The language defaults to en; on a loaded machine a click on an option that is still
    // animating in can be lost, so pick until the select shows ja (a row saved as en would
    // never reach the Japanese page).
    // (A `has` locator is matched inside the outer one: built from the page, not the dialog.)
    const language = dialog.locator(".ant-select", { has: page.getByLabel("Language") });
    await expect
      .poll(
        async () => {
          const shown = (await language.textContent()) ?? "";
          if (shown.trim() === "ja") return "ja";
          await dialog.getByLabel("Language").click();
          await page.locator(".ant-select-item-option", { hasText: /^ja$/ }).click();
          return shown.trim();
        },
        { timeout: 30_000 },
      )
      .toBe("ja");
    await dialog.getByLabel("Title").fill("Bad <b>title</b>");
    await dialog.getByLabel("Description").fill("Japanese airdrop library description");
    await dialog.getByRole("button", { name: "Save" }).click();
    // The server's 10422 names the field; the form shows it there.
    await dialog
      .locator(".ant-form-item-explain-error", { hasText: "plain text only (no < or >)" })
      .waitFor();

    await dialog.getByLabel("Title").fill("エアドロップ一覧 E2E");
    await dialog.getByRole("button", { name: "Save" }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    const saved = rows.filter({ hasText: "エアドロップ一覧 E2E" });
    await expect.poll(() => saved.count()).toBe(1);
    expect(await saved.locator("td").nth(1).textContent()).toBe("ja");

    const visitor = await newPage(run.browser, { locale: "ja" });
    await visitor.goto(`${run.server.url}/ja/airdrops`);
    // The anonymous micro-cache may hold the page for up to a second; each reload is a
    // full SSR page, slow on a loaded 2-core machine, so the poll allows several.
    await expect
      .poll(
        async () => {
          await visitor.reload();
          return visitor.title();
        },
        { timeout: 30_000 },
      )
      .toContain("エアドロップ一覧 E2E");
  });
});
