/**
 * Screenshots of the shell for review: home and 404, en and ar, light and dark, phone
 * (390 px) and desktop (1440 px).
 *
 *   npx node apps/web/scripts/screenshots.ts http://127.0.0.1:3201 /tmp/shots
 *
 * SCREENSHOT_PAGES="name=/path,..." for other pages than home and 404.
 * Needs a running server (see CONTRIBUTING) and Chromium (CHROMIUM_PATH, default
 * /usr/bin/chromium).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";

const [base = "http://127.0.0.1:3200", outDir = "/tmp/meridian-shots", only] = process.argv.slice(2);
mkdirSync(outDir, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});

// SCREENSHOT_PAGES="airdrop=/airdrops/notcoin,app=/telegram-apps/notcoin" picks other pages.
const pages = process.env.SCREENSHOT_PAGES
  ? process.env.SCREENSHOT_PAGES.split(",").map((entry) => {
      const [name = "", pagePath = "/"] = entry.split("=");
      return { name, path: pagePath };
    })
  : [
      { name: "home", path: "/" },
      { name: "404", path: "/no-such-page" },
    ];
const locales = ["en", "ar"];
const themes = ["white", "black"];
const widths = [390, 1440];

try {
  for (const page of pages) {
    for (const locale of locales) {
      for (const theme of themes) {
        for (const width of widths) {
          const name = `${page.name}-${locale}-${theme}-${width}`;
          if (only && !name.includes(only)) continue;
          const context = await browser.newContext({ viewport: { width, height: 900 }, locale });
          await context.addCookies([{ name: "theme", value: theme, url: base }]);
          const tab = await context.newPage();
          const url = `${base}${locale === "en" ? "" : `/${locale}`}${page.path === "/" && locale !== "en" ? "" : page.path}`;
          const response = await tab.goto(url, { waitUntil: "networkidle" });
          await tab.screenshot({ path: path.join(outDir, `${name}.png`), fullPage: true });
          console.log(`${response?.status()} ${url} -> ${name}.png`);
          await context.close();
        }
      }
    }
  }
} finally {
  await browser.close();
}
