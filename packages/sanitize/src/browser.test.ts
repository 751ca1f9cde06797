import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { build, type Rolldown } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findStructuralProblems, loadVectors } from "../test/xss-harness.ts";

// NOTE: the real-browser half of the xss suite; skipped where no Chromium is installed.
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ENTRY = fileURLToPath(new URL("./index.ts", import.meta.url));
const ORIGIN = "https://page.example";

/** Builds the package for the browser the way an app bundle would see it. */
async function buildBrowserBundle(): Promise<Rolldown.OutputChunk> {
  const result = await build({
    configFile: false,
    logLevel: "error",
    build: {
      write: false,
      minify: false,
      lib: { entry: ENTRY, formats: ["iife"], name: "MeridianSanitize", fileName: "sanitize" },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunk = outputs.flatMap((o) => o.output).find((c): c is Rolldown.OutputChunk => c.type === "chunk");
  if (!chunk) throw new Error("vite produced no chunk");
  return chunk;
}

describe.skipIf(!existsSync(CHROMIUM))("in Chromium (browser: DOMPurify over window)", () => {
  let browser: Browser;
  let page: Page;
  let bundle: Rolldown.OutputChunk;

  beforeAll(async () => {
    bundle = await buildBrowserBundle();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    });
    page = await browser.newPage();
    // Every request (the page and any image a payload names) gets an inert answer: no network.
    await page.route("**/*", (route) =>
      route.fulfill({
        status: 200,
        contentType: "text/html",
        body: "<!doctype html><html><body></body></html>",
      }),
    );
    await page.goto(`${ORIGIN}/`);
    await page.addScriptTag({ content: bundle.code });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it("the browser bundle never contains jsdom", () => {
    expect(bundle.moduleIds.some((id) => id.includes("/node_modules/jsdom/"))).toBe(false);
    expect(bundle.moduleIds.some((id) => id.includes("/node_modules/dompurify/"))).toBe(true);
  });

  /** Inserts each HTML string through innerHTML and an iframe's document.write, fires events, counts alerts. */
  const countAlerts = (htmls: string[]) =>
    page.evaluate(async (list) => {
      let calls = 0;
      const hook = (w: Window | null) => {
        if (!w) return;
        const record = () => {
          calls += 1;
          return null;
        };
        Object.assign(w, { alert: record, confirm: record, prompt: record });
      };
      hook(window);
      // Clicks may follow javascript: links (what we look for) but must not navigate the test page away.
      const stayHere = (event: Event) => {
        const link = (event.target as Element | null)?.closest?.("a");
        if (link && link.protocol !== "javascript:") event.preventDefault();
      };
      document.addEventListener("click", stayHere, true);
      const fire = (root: Document | Element) => {
        for (const el of Array.from(root.querySelectorAll("*"))) {
          for (const type of ["load", "error", "mouseover", "focus", "animationstart", "toggle"]) {
            el.dispatchEvent(new Event(type));
          }
          if (el instanceof HTMLAnchorElement || (el as Element).localName === "a")
            (el as HTMLElement).click();
        }
      };
      for (const html of list) {
        const host = document.createElement("div");
        document.body.append(host);
        host.innerHTML = html;
        fire(host);
        const frame = document.createElement("iframe");
        document.body.append(frame);
        const doc = frame.contentDocument;
        if (doc) {
          doc.open();
          hook(frame.contentWindow);
          doc.addEventListener("click", stayHere, true);
          doc.write(html);
          doc.close();
          fire(doc);
        }
      }
      // Image errors, autofocus and animations fire asynchronously.
      await new Promise((resolve) => setTimeout(resolve, 500));
      document.body.replaceChildren();
      document.removeEventListener("click", stayHere, true);
      return calls;
    }, htmls);

  it("the alert detector sees script that runs (control)", async () => {
    expect(await countAlerts(["<img src=x onerror=alert(1)>"])).toBeGreaterThan(0);
    expect(await countAlerts(['<a href="java&#x09;script:alert(1)">x</a>'])).toBeGreaterThan(0);
    expect(await countAlerts(["<script>alert(1)</script>"])).toBeGreaterThan(0);
  });

  it("no xss vector calls alert once sanitised in the browser, and the output passes the structural checks", async () => {
    const payloads = loadVectors()
      .filter((v) => v.xss)
      .map((v) => v.payload);
    const outputs = await page.evaluate(
      (list) =>
        list.map((p) =>
          (
            window as unknown as { MeridianSanitize: { sanitizeHtml(h: string, o: object): string } }
          ).MeridianSanitize.sanitizeHtml(p, { warn: false }),
        ),
      payloads,
    );
    expect(outputs).toHaveLength(141);
    expect(await countAlerts(outputs)).toBe(0);
    const problems = outputs.flatMap((html, i) => findStructuralProblems(html).map((p) => `#${i}: ${p}`));
    expect(problems).toEqual([]);
  }, 60_000);
});
