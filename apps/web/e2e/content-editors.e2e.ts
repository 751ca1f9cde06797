import { expect, test } from "vitest";
import { createAdmin, loginThroughPage } from "./account-flows.ts";
import { newPage, serverAndBrowser } from "./harness.ts";

// The news and article editors' language switch (docs/content.md "Editing languages");
// the app editor's is in tg-apps.e2e.ts.
const run = serverAndBrowser(
  { env: { LOGIN_ALLOW_PLAIN: "true" } },
  { timeout: 120_000, setup: (server) => createAdmin(server.dataDir, "ed@example.com", "admin-password-1") },
);

test("news and article editors save one language's texts and leave the others", async () => {
  const admin = await newPage(run.browser);
  await loginThroughPage(
    admin,
    run.server.url,
    { email: "ed@example.com", password: "admin-password-1" },
    "/admin/airdrops",
  );
  const news = admin.locator('section[aria-labelledby="ad-admin-news"]');
  const row = news.locator("tr.ant-table-row", { hasText: "Airdrop safety checklist" });
  await row.waitFor();
  expect(await row.locator(".content-languages").getAttribute("data-languages")).toBe("en");
  await row.getByRole("button", { name: "Edit" }).click();
  const dialog = admin.getByRole("dialog");
  const sw = dialog.getByTestId("news-edit-language");
  await sw.waitFor();
  expect(await sw.locator('option[value="fr"]').textContent()).toBe("fr *");
  await sw.selectOption("fr");
  await expect.poll(() => dialog.getByLabel("Title", { exact: true }).inputValue()).toBe("");
  await dialog.getByLabel("Title", { exact: true }).fill("Liste de sécurité");
  await dialog.getByLabel("Body (HTML)").fill("<p>Texte français du test.</p>");
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect
    .poll(() => row.locator(".content-languages").getAttribute("data-languages"), { timeout: 15_000 })
    .toBe("en,fr");

  // English is untouched.
  expect(await row.locator("td").first().textContent()).toBe("Airdrop safety checklist");

  // An article written in every language: German is rewritten, French and English stay.
  await admin.goto(`${run.server.url}/admin/tg-apps`);
  const articles = admin.locator('section[aria-labelledby="tga-admin-articles"]');
  await articles.locator("tr.ant-table-row").first().waitFor();
  const arow = articles.locator("tr.ant-table-row", { hasText: "Blum drop game tips" });
  for (let p = 0; p < 10 && (await arow.count()) === 0; p += 1)
    await articles.locator(".ant-pagination-next").click();
  const before = await arow.locator(".content-languages").getAttribute("data-languages");
  await arow.getByRole("button", { name: "Edit" }).click();
  const d2 = admin.getByRole("dialog");
  const sw2 = d2.getByTestId("article-edit-language");
  await sw2.waitFor();
  await sw2.selectOption("de");
  await expect.poll(() => d2.getByLabel("Title", { exact: true }).inputValue()).not.toBe("");
  await d2.getByLabel("Title", { exact: true }).fill("Neuer deutscher Titel vom Test");
  // The article's facts are not editable while another language is chosen.
  expect(await d2.getByLabel("Published at (UTC)").isDisabled()).toBe(true);
  await d2.getByRole("button", { name: "Save" }).click();
  await expect.poll(() => d2.isVisible(), { timeout: 15_000 }).toBe(false);
  expect(await arow.locator(".content-languages").getAttribute("data-languages")).toBe(before);
  const page = await newPage(run.browser);
  await page.goto(`${run.server.url}/de/telegram-apps/blum/articles`);
  await expect.poll(() => page.getByText("Neuer deutscher Titel vom Test").count()).toBeGreaterThan(0);
  await page.goto(`${run.server.url}/fr/telegram-apps/blum/articles`);
  await expect.poll(() => page.getByText("Astuces pour le jeu de chute de Blum").count()).toBeGreaterThan(0);
  await page.goto(`${run.server.url}/telegram-apps/blum/articles`);
  expect(await page.getByText("Neuer deutscher Titel vom Test").count()).toBe(0);
});
