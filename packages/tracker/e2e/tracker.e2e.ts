/**
 * The SDK in Chromium: a page loading the built IIFE bundle, a tiny Node ingest on a
 * 34xx port. Navigates with pushState, goes back, hides the page, shows it again and
 * reloads, closes the tab, then checks that every event reached the ingest exactly once.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { TrackingRecord } from "@meridian/contracts";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleTracker } from "../scripts/bundle.ts";

interface Received {
  events: TrackingRecord[];
}

const received: Received[] = [];
let server: Server;
let browser: Browser;
let origin = "";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8"><title>Apps centre</title>
<script src="/tracker.iife.js"></script>
<script>MeridianTracker.init({ appId: "meridian-web", appName: "Meridian", ver: "e2e", logEnv: "test1" });</script>
</head>
<body>
<h1>Apps and Bot Center</h1>
<button data-track-click="b200" data-track-ext='{"pos":1}'>Open</button>
<div data-track-expose="b300" style="height:120px">Banner</div>
</body>
</html>`;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

async function listen(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  for (let port = 3430; port < 3440; port++) {
    const candidate = createServer(handler);
    const ok = await new Promise<boolean>((resolve) => {
      candidate.once("error", () => resolve(false));
      candidate.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (ok) return candidate;
  }
  throw new Error("no free port in 3430-3439");
}

beforeAll(async () => {
  const { code } = await bundleTracker("iife");
  server = await listen(async (request, response) => {
    const url = request.url ?? "/";
    if (request.method === "POST" && url === "/v1/mix/public/clientCommonConfig") {
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify({
          code: "00000",
          msg: "ok",
          data: {
            clientCommonConfig: { eventLogUploadSwitch: true, userId: "" },
            localVo: { ip: "127.0.0.1" },
          },
        }),
      );
    } else if (request.method === "POST" && url === "/v1/buried/log/info") {
      const body = await readBody(request);
      received.push({ events: JSON.parse(body) });
      response.statusCode = 200;
      response.end();
    } else if (url === "/tracker.iife.js") {
      response.setHeader("content-type", "text/javascript");
      response.end(code);
    } else if (url === "/favicon.ico") {
      response.statusCode = 404;
      response.end();
    } else {
      response.setHeader("content-type", "text/html");
      response.end(PAGE);
    }
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

function all(): TrackingRecord[] {
  return received.flatMap((r) => r.events);
}

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(summary())}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function summary(): string[] {
  return all().map((e) => `${e.type}/${e.page_status}/${e.event_tracking_id}@${new URL(e.url).pathname}`);
}

async function setHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((isHidden) => {
    if (isHidden) Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
    // back to the browser's own getter
    else delete (document as { visibilityState?: string }).visibilityState;
    document.dispatchEvent(new Event("visibilitychange", { bubbles: true }));
  }, hidden);
}

describe("tracker in Chromium", () => {
  it("delivers page views, clicks, exposes, leave events and metrics exactly once across navigation, hiding and reload", async () => {
    const page = await browser.newPage();
    // counts beacons, still sending them
    await page.addInitScript(() => {
      const send = navigator.sendBeacon.bind(navigator);
      const w = window as Window & { beacons?: number };
      navigator.sendBeacon = (url, data) => {
        w.beacons = (w.beacons ?? 0) + 1;
        return send(url, data);
      };
    });
    await page.goto(`${origin}/en/telegram-apps`);
    await until(() => all().some((e) => e.type === 3), "the first show and expose");
    await page.click("button");
    await page.evaluate(() => history.pushState(null, "", "/en/telegram-apps/wallet-bot"));
    await until(() => all().filter((e) => e.type === 3).length >= 2, "the expose on the second page view");
    await page.evaluate(() => history.back());
    await until(() => all().filter((e) => e.type === 3).length >= 3, "the expose on the third page view");

    const beforeHide = received.length;
    await setHidden(page, true);
    await until(() => all().some((e) => e.type === 9), "the metrics sent on hide");
    const onHide = received.slice(beforeHide).flatMap((r) => r.events);
    expect(onHide.map((e) => [e.type, e.page_status])).toEqual([
      [1, 1],
      [9, 0],
    ]);
    expect(await page.evaluate(() => (window as Window & { beacons?: number }).beacons)).toBe(1);
    expect(Object.keys(onHide[1]?.event_tracking_ext ?? {})).toEqual(expect.arrayContaining(["ttfb", "fcp"]));

    await setHidden(page, false);
    await page.reload();
    await until(() => all().filter((e) => e.type === 1).length >= 7, "the show after the reload");
    // closing the tab sends the second load's leave event and metrics by beacon
    await page.close({ runBeforeUnload: true });
    await until(() => all().filter((e) => e.type === 9).length >= 2, "the leave event and metrics on close");
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const events = all();
    expect(summary()).toEqual([
      "1/0/b9332@/en/telegram-apps",
      "3/0/b300@/en/telegram-apps",
      "2/0/b200@/en/telegram-apps",
      "1/1/b9332@/en/telegram-apps",
      "1/0/b9331@/en/telegram-apps/wallet-bot",
      "3/0/b300@/en/telegram-apps/wallet-bot",
      "1/1/b9331@/en/telegram-apps/wallet-bot",
      "1/0/b9332@/en/telegram-apps",
      "3/0/b300@/en/telegram-apps",
      "1/1/b9332@/en/telegram-apps",
      "9/0//@/en/telegram-apps",
      "1/0/b9332@/en/telegram-apps",
      "3/0/b300@/en/telegram-apps",
      "1/1/b9332@/en/telegram-apps",
      "9/0//@/en/telegram-apps",
    ]);
    // exactly once: no (page view, sequence) pair twice
    const keys = events.map((e) => `${e.page_unique_id}:${e.seq}`);
    expect(new Set(keys).size).toBe(keys.length);
    // one device, one tab session across the reload; the context is complete
    expect(new Set(events.map((e) => e.device_id)).size).toBe(1);
    expect(new Set(events.map((e) => e.session_id)).size).toBe(1);
    expect(events[0]).toMatchObject({
      lib_version: "1.1.45",
      log_env: "test1",
      sys: 3,
      browser: "Chrome",
      ip: "127.0.0.1",
      title: "Apps centre",
      business1: "Price",
      business2: "Crypto Price",
    });
    expect(events[0]?.uid).toMatch(/^w-\d{31}$/);
  });
});
