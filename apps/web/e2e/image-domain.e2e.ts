/**
 * Image domains (docs/product.md §4): after hydration the app fetches the candidate image
 * hosts, probes them, stores the first to answer as the fastest image domain, sends it
 * as `x-fast-img-domain`, and moves an image on an allowed host that fails to load to it.
 *
 * Two local hosts stand in for the CDN: `127.0.0.1:<A>` is a tiny static server that
 * answers, `localhost:<B>` is a port nobody listens on. The probe and the swapper speak
 * https only, so the browser context maps `https://` on those hosts to plain http.
 */
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  type Browser,
  freePort,
  launchBrowser,
  newPage,
  type RunningServer,
  startServer,
} from "./harness.ts";

// A 1x1 transparent PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

let server: RunningServer;
let browser: Browser;
let images: Server;
let fastHost: string;
let downHost: string;
const served: string[] = [];

beforeAll(async () => {
  const [fastPort, downPort] = await Promise.all([freePort(), freePort()]);
  fastHost = `127.0.0.1:${fastPort}`;
  downHost = `localhost:${downPort}`;
  images = createServer((request, response) => {
    served.push(request.url ?? "");
    response.writeHead(200, { "content-type": "image/png", "cache-control": "no-store" }).end(PNG);
  });
  await new Promise<void>((resolve) => images.listen(fastPort, "127.0.0.1", resolve));
  [server, browser] = await Promise.all([
    startServer({ env: { IMG_DOMAINS_FOREIGN: downHost, IMG_DOMAINS_INTERNAL: fastHost } }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => images?.close(resolve));
});

test("the first host to answer is stored and sent, and a broken image on an allowed host moves to it", async () => {
  const page = await newPage(browser, { allowErrors: [/Failed to load resource/] });
  await page.context().route(/^https:\/\/(127\.0\.0\.1|localhost):\d+\//, async (route) => {
    const url = new URL(route.request().url());
    url.protocol = "http:";
    try {
      await route.fulfill({ response: await route.fetch({ url: url.href, maxRetries: 0, timeout: 2000 }) });
    } catch {
      await route.abort("connectionrefused");
    }
  });
  const sentFastHost: (string | undefined)[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/v1/user/")) {
      sentFastHost.push(request.headers()["x-fast-img-domain"]);
    }
  });

  await page.goto(`${server.url}/`);
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem("fastImgDomain")), { timeout: 15_000 })
    .toBe(fastHost);
  expect(served.some((url) => url.startsWith("/static/probe.png?t="))).toBe(true);

  // An image on the allowed host that is down: its error moves it to the fast host.
  await page.evaluate((host) => {
    const img = document.createElement("img");
    img.id = "broken";
    img.alt = "";
    img.src = `https://${host}/media/pic.png?x=1`;
    document.body.append(img);
  }, downHost);
  await expect
    .poll(() => page.locator("#broken").getAttribute("src"))
    .toBe(`https://${fastHost}/media/pic.png?x=1`);
  await expect
    .poll(() => page.locator("#broken").evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBe(1);
  expect(served).toContain("/media/pic.png?x=1");

  // After a reload the stored host rides along on API calls (the server rewrites image URLs to it).
  await page.reload();
  await expect.poll(() => sentFastHost.at(-1), { timeout: 15_000 }).toBe(fastHost);
});
