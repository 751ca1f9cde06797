import { expect, test } from "vitest";
import { createAdmin, loginThroughPage } from "./account-flows.ts";
import { newPage, type Page, serverAndBrowser } from "./harness.ts";

// The mail sink hands the test its registration code; plain login bodies skip the client-side encryption.
const run = serverAndBrowser({ env: { LOGIN_ALLOW_PLAIN: "true" } }, { timeout: 120_000 });

/** Registers a fresh account through the API from the page, so the page's cookies hold its session. */
async function registerInPage(page: Page, email: string): Promise<void> {
  const post = (path: string, body: unknown) =>
    page.evaluate(
      async ([p, b]) => {
        const res = await fetch(p, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(b),
        });
        return (await res.json()) as { code: string; msg: string };
      },
      [path, body] as const,
    );
  const before = run.server.mail.to(email).length;
  await post("/v1/user/public/sendCode", { bizType: "register", email });
  const code = await run.server.mail.code(email, before);
  const result = await post("/v1/user/register/email", { email, emailCode: code, pwd: "correct horse 123" });
  expect(result.code, result.msg).toBe("00000");
}

test("list: breadcrumb, tip, tabs in the URL, search hit and miss", async () => {
  const page = await newPage(run.browser);
  await page.goto(`${run.server.url}/telegram-apps`);
  await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Apps and Bot Center");
  expect(await page.getByRole("navigation", { name: "Breadcrumb" }).textContent()).toContain("Home");
  expect(await page.locator(".tga-tip").textContent()).toMatch(/^\d{2,} apps and bots in the ecosystem$/);
  expect(await page.locator("[data-track-expose='b9332']").count()).toBeGreaterThan(10);
  expect(await page.getByText("Editor's choice").count()).toBeGreaterThan(0);

  await page.getByRole("link", { name: "Games", exact: true }).click();
  await page.waitForURL(/tab=games/);
  const metas = page.locator(".tga-card .tga-card-meta > span:first-child");
  await expect.poll(async () => [...new Set(await metas.allTextContents())]).toEqual(["Games"]);
  expect(await metas.count()).toBeGreaterThan(3);
  expect(await page.getByRole("link", { name: "Games", exact: true }).getAttribute("aria-current")).toBe(
    "page",
  );

  const all = page.getByRole("link", { name: "All", exact: true });
  await all.click();
  await expect.poll(() => all.getAttribute("aria-current")).toBe("page");
  const search = page.getByPlaceholder("search by app name");
  await search.fill("notcoin");
  await search.press("Enter");
  await page.waitForURL(/q=notcoin/);
  await expect.poll(() => page.locator(".tga-card-name").allTextContents()).toEqual(["Notcoin"]);

  await search.fill("zzzz-no-such-app");
  await page.getByRole("button", { name: "Search" }).click();
  await page.waitForURL(/q=zzzz/);
  await expect.poll(() => page.getByText("No data found.").isVisible()).toBe(true);

  // The tab, query and page are plain links: the same state loads from the URL alone.
  // Words match as prefixes: "notc" finds Notcoin.
  const direct = await page.request.get(`${run.server.url}/telegram-apps?tab=play-to-earn&q=notc`);
  expect(await direct.text()).toContain("Notcoin");
});

test("detail: open link, screenshots show more and less, information, JSON-LD; unknown app is a real 404", async () => {
  const page = await newPage(run.browser, { allowErrors: ["Failed to load resource"] });
  await page.goto(`${run.server.url}/telegram-apps/ston-fi`);
  expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("STON.fi");
  expect(await page.getByRole("link", { name: "Open STON.fi in Telegram" }).getAttribute("href")).toBe(
    "https://t.me/stonfi_bot?start=meridian",
  );
  const shots = page.locator(".tga-shots img");
  const initial = await shots.count();
  expect(initial).toBe(3);
  await page.getByRole("button", { name: "Show more" }).click();
  await expect.poll(() => shots.count()).toBeGreaterThan(3);
  await page.getByRole("button", { name: "Show less" }).click();
  await expect.poll(() => shots.count()).toBe(3);
  const info = await page.locator(".tga-info").textContent();
  expect(info).toContain("Token launch");
  expect(info).toContain("The Open League");
  expect(await page.getByRole("heading", { name: "You might also like" }).isVisible()).toBe(true);
  expect(await page.getByText("is not responsible for the apps listed here").isVisible()).toBe(true);
  const ld = await page.locator('script[type="application/ld+json"]').allTextContents();
  const app = ld
    .map((s) => JSON.parse(s) as Record<string, unknown>)
    .find((o) => o["@type"] === "SoftwareApplication");
  expect(app?.offers).toMatchObject({ price: "0" });
  expect(app?.aggregateRating).toMatchObject({ "@type": "AggregateRating" });

  const missing = await page.goto(`${run.server.url}/telegram-apps/no-such-app`);
  expect(missing?.status()).toBe(404);
  const articles = await page.goto(`${run.server.url}/telegram-apps/ston-fi/articles`);
  expect(articles?.status()).toBe(200);
  expect(await page.getByRole("heading", { name: "How to swap tokens on STON.fi" }).isVisible()).toBe(true);
});

test("rating: anonymous visitors are sent to log in; a user rates, sees the aggregate move, then hits the frequency limit", async () => {
  const page = await newPage(run.browser, { allowErrors: ["Failed to load resource"] });
  await page.goto(`${run.server.url}/telegram-apps/catizen`);
  const login = page.getByRole("link", { name: "Log in to rate this app" });
  expect(await login.getAttribute("href")).toBe("/login?redirect=%2Ftelegram-apps%2Fcatizen");

  await registerInPage(page, `rater-${Date.now()}@example.com`);
  await page.reload();
  const count = page.getByTestId("rating-count");
  const before = Number.parseInt((await count.textContent()) ?? "0", 10);
  await page.getByRole("button", { name: "Rate 4 stars" }).click();
  await expect.poll(() => page.getByRole("status").first().textContent()).toBe("Rating successful");
  expect(Number.parseInt((await count.textContent()) ?? "0", 10)).toBe(before + 1);

  // A second rating of the same app replaces the first: the count stays.
  await page.getByRole("button", { name: "Rate 5 stars" }).click();
  await expect
    .poll(() => page.getByRole("button", { name: "Rate 5 stars" }).getAttribute("aria-pressed"))
    .toBe("true");
  expect(Number.parseInt((await count.textContent()) ?? "0", 10)).toBe(before + 1);

  await page.getByRole("button", { name: "Rate 3 stars" }).click();
  await expect
    .poll(() => page.getByRole("button", { name: "Rate 3 stars" }).getAttribute("aria-pressed"))
    .toBe("true");
  await page.getByRole("button", { name: "Rate 2 stars" }).click();
  await expect.poll(() => page.getByRole("status").first().textContent()).toBe("Exceeds the frequency");
});

test("Arabic is right-to-left with translated tabs; dark theme paints the cards dark", async () => {
  const page = await newPage(run.browser, {
    colorScheme: "dark",
    cookies: { url: run.server.url, values: { theme: "black" } },
  });
  await page.goto(`${run.server.url}/ar/telegram-apps`);
  expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
  expect(await page.getByRole("link", { name: "ألعاب", exact: true }).isVisible()).toBe(true);
  const bg = await page
    .locator(".tga-card-link")
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(bg).toBe("rgb(24, 26, 32)");
});

test("tabs and pages canonicalise with their query; a search result is noindex and canonicalises to its tab", async () => {
  const page = await newPage(run.browser);
  await page.goto(`${run.server.url}/ja/telegram-apps?tab=games&page=2&q=cat`);
  const canonical = page.locator('link[rel="canonical"]');
  expect(await canonical.getAttribute("href")).toBe(`${run.server.url}/ja/telegram-apps?tab=games&page=2`);
  expect(await page.locator('link[hreflang="x-default"]').getAttribute("href")).toBe(
    `${run.server.url}/telegram-apps?tab=games&page=2`,
  );
  expect(await page.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex, follow");

  await page.goto(`${run.server.url}/telegram-apps?tab=all&page=1`);
  expect(await canonical.getAttribute("href")).toBe(`${run.server.url}/telegram-apps`);
  expect(await page.locator('meta[name="robots"]').count()).toBe(0);
});

test("admin: 401 and 403; an approved submission is listed, then written in German in the editor", async () => {
  const anonymous = await page401();
  expect(anonymous).toBe(401);

  const user = await newPage(run.browser, { allowErrors: ["Failed to load resource"] });
  await user.goto(`${run.server.url}/telegram-apps`);
  await registerInPage(user, `plain-${Date.now()}@example.com`);
  const forbidden = await user.goto(`${run.server.url}/admin/tg-apps`);
  expect(forbidden?.status()).toBe(403);
  expect(await user.getByRole("alert").textContent()).toContain("Administrators only");

  // A visitor asks for a listing.
  const name = `Review Bot ${Date.now().toString(36)}`;
  const visitor = await newPage(run.browser);
  await visitor.goto(`${run.server.url}/telegram-apps`);
  const submitted = await visitor.evaluate(async (appName) => {
    const res = await fetch("/v1/content/tg-apps/submissions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: appName,
        botUsername: "review_e2e_bot",
        website: "https://example.com",
        category: 5,
        email: "owner@example.com",
        description: "A bot that reviews things, submitted by the browser suite.",
      }),
    });
    return ((await res.json()) as { code: string }).code;
  }, name);
  expect(submitted).toBe("00000");

  const email = `admin-${Date.now()}@example.com`;
  createAdmin(run.server.dataDir, email, "admin-password-1");
  const admin = await newPage(run.browser);
  await loginThroughPage(admin, run.server.url, { email, password: "admin-password-1" }, "/admin/tg-apps");
  await admin.getByRole("heading", { name: "Apps and Bot Center administration" }).waitFor();
  const row = admin.getByTestId("tga-admin-submissions").locator("tr", { hasText: name });
  await row.getByRole("button", { name: `Approve ${name}` }).click();
  await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain("Approved");
  const slug = name.toLowerCase().replace(/\s+/g, "-");
  expect(await row.textContent()).toContain(slug);

  await visitor.goto(`${run.server.url}/telegram-apps?q=${encodeURIComponent(name)}`);
  await expect.poll(() => visitor.locator(".tga-card-name").allTextContents()).toEqual([name]);
  const detail = await visitor.goto(`${run.server.url}/telegram-apps/${slug}`);
  expect(detail?.status()).toBe(200);

  // Written in English only: the German page shows the English body, noindex, no German alternate.
  const hreflangs = () =>
    visitor
      .locator('link[rel="alternate"][hreflang]')
      .evaluateAll((links) => links.map((l) => l.getAttribute("hreflang")));
  await visitor.goto(`${run.server.url}/de/telegram-apps/${slug}`);
  expect(await hreflangs()).not.toContain("de");
  expect(await visitor.locator('meta[name="robots"]').getAttribute("content")).toContain("noindex");

  // The administrator writes the German long description through the editor's language switch.
  await admin.reload();
  const apps = admin.locator('section[aria-labelledby="tga-admin-apps"]');
  await apps.locator("tr.ant-table-row").first().waitFor();
  const appRow = apps.locator("tr.ant-table-row", { hasText: slug });
  for (let page = 0; page < 10 && (await appRow.count()) === 0; page += 1) {
    await apps.locator(".ant-pagination-next").click();
  }
  expect(await appRow.locator(".content-languages").getAttribute("data-languages")).toBe("en");
  await appRow.getByRole("button", { name: "Edit" }).click();
  const dialog = admin.getByRole("dialog");
  const language = dialog.getByTestId("app-edit-language");
  await expect.poll(() => language.count(), { timeout: 15_000 }).toBe(1);
  expect(await language.locator('option[value="de"]').textContent()).toBe("de *");
  await language.selectOption("de");
  const long = dialog.getByLabel("Description (HTML)", { exact: true });
  await expect.poll(() => long.inputValue()).toBe("");
  const german = "Ein Bot, der Dinge bewertet: auf Deutsch geschrieben im Editor.";
  await long.fill(`<p>${german}</p>`);
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect
    .poll(() => appRow.locator(".content-languages").getAttribute("data-languages"), { timeout: 15_000 })
    .toBe("en,de");

  // The German page now shows it and lists German among its alternates; English is untouched.
  await visitor.goto(`${run.server.url}/de/telegram-apps/${slug}`);
  await expect.poll(() => visitor.getByText(german).count()).toBeGreaterThan(0);
  expect(await hreflangs()).toContain("de");
  expect(await visitor.locator('meta[name="robots"]').count()).toBe(0);
  await visitor.goto(`${run.server.url}/telegram-apps/${slug}`);
  expect(await visitor.getByText(german).count()).toBe(0);
  expect(await visitor.getByText("A bot that reviews things").count()).toBeGreaterThan(0);
});

async function page401(): Promise<number | undefined> {
  const page = await newPage(run.browser, { allowErrors: ["Failed to load resource"] });
  const response = await page.goto(`${run.server.url}/admin/tg-apps`);
  expect(await page.getByRole("link", { name: "Log in" }).last().getAttribute("href")).toBe(
    "/login?redirect=%2Fadmin%2Ftg-apps",
  );
  return response?.status();
}
