/**
 * Browser-test harness: the real production server on a free port with its own data
 * directory, and a real Chromium driven by playwright-core.
 *
 * ```ts
 * const run = serverAndBrowser({ env: { FUTURES_TEST_MARKS: "1" } }); // this file's server and browser
 * test("home", async () => {
 *   const page = await newPage(run.browser, { locale: "ar" });
 *   await page.goto(`${run.server.url}/ar`);
 * });
 * ```
 */
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, onTestFinished } from "vitest";
import {
  type RunningServer as ProcessServer,
  type StartServerOptions,
  startServer as startServerProcess,
} from "../../../scripts/lib/server-process.ts";
import { MailSink } from "../../server/src/test/mail-sink.ts";

export type { Browser, Page } from "playwright-core";
export { freePort, repoRoot, type StartServerOptions } from "../../../scripts/lib/server-process.ts";
export type { SunkMail } from "../../server/src/test/mail-sink.ts";

/** A test server and the SMTP sink its mail goes to (`SMTP_URL`), as a user's inbox. */
export interface RunningServer extends ProcessServer {
  mail: MailSink;
}

const sinks = new Map<string, MailSink>();

/** The mail sink of the server at `url` (started by this harness). */
export function mailOf(url: string): MailSink {
  const sink = sinks.get(url);
  if (sink === undefined) throw new Error(`no mail sink for ${url}`);
  return sink;
}

/**
 * Starts the production server (scripts/lib/server-process.ts) with `SMTP_URL` pointing at
 * a fresh SMTP sink, unless `env.SMTP_URL` is given; `options.mail` reuses a sink (restarts);
 * `smtp: false` starts it without SMTP (messages go to its log, as on a fresh `npm start`).
 */
export async function startServer(
  options: StartServerOptions & { mail?: MailSink; smtp?: boolean } = {},
): Promise<RunningServer> {
  const mail = options.mail ?? (await new MailSink().start());
  const smtp = options.smtp === false ? {} : { SMTP_URL: mail.url };
  const server = await startServerProcess({ ...options, env: { ...smtp, ...options.env } });
  sinks.set(server.url, mail);
  return {
    ...server,
    mail,
    async stop() {
      await server.stop();
      sinks.delete(server.url);
      if (options.mail === undefined) await mail.stop();
    },
  };
}

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Headless Chromium with the background chatter (updates, sync, QUIC) switched off. */
export async function launchBrowser(): Promise<Browser> {
  return await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  });
}

export interface FileServer {
  /** This file's server (read it inside hooks and tests: it starts in `beforeAll`). */
  readonly server: RunningServer;
  readonly browser: Browser;
}

/**
 * Registers the file's `beforeAll` (the server with `options` and a browser, started
 * together, then `setup` with the server) and `afterAll` (browser closed, server stopped).
 * `timeout` overrides the setup hook's timeout.
 */
export function serverAndBrowser(
  options: StartServerOptions = {},
  { setup, timeout }: { setup?: (server: RunningServer) => void | Promise<void>; timeout?: number } = {},
): FileServer {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(options), launchBrowser()]);
    await setup?.(server);
  }, timeout);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return {
    get server() {
      if (server === undefined) throw new Error("the server starts in beforeAll");
      return server;
    },
    get browser() {
      if (browser === undefined) throw new Error("the browser starts in beforeAll");
      return browser;
    },
  };
}

export interface NewPageOptions {
  /** Browser locale (Accept-Language and navigator.language), e.g. "ar". */
  locale?: string;
  colorScheme?: "light" | "dark";
  viewport?: { width: number; height: number };
  /** Cookies set on the server's origin before the first navigation. */
  cookies?: { url: string; values: Record<string, string> };
  /** Console errors and page errors matching one of these do not fail the test. */
  allowErrors?: (string | RegExp)[];
  /** Passed to `browser.newContext` as is (after the options above). */
  context?: BrowserContextOptions;
}

/**
 * A page in a fresh browser context. Every uncaught page error and every console
 * error (unless allow-listed) fails the current test when it finishes; the context is
 * closed then too. Call it inside a test.
 */
export async function newPage(browser: Browser, options: NewPageOptions = {}): Promise<Page> {
  const context = await browser.newContext({
    locale: options.locale ?? "en-US",
    colorScheme: options.colorScheme ?? "light",
    viewport: options.viewport ?? { width: 1280, height: 800 },
    ...options.context,
  });
  if (options.cookies) {
    const { url, values } = options.cookies;
    await context.addCookies(Object.entries(values).map(([name, value]) => ({ name, value, url })));
  }
  // Locally everything answers in well under a second: fail an action long before the
  // 120 s test timeout. A first render on a fresh server under CI load took over 30 s.
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(60_000);
  const page = await context.newPage();
  const problems: string[] = [];
  // A page error's `cause` (React's recoverable errors wrap the real one: #520 around
  // #467) reaches neither `pageerror` nor the console text: the page logs the chain.
  await page.addInitScript(() => {
    window.addEventListener("error", (event) => {
      const chain: string[] = [];
      for (let e: unknown = (event.error as { cause?: unknown } | null)?.cause; e && chain.length < 4; ) {
        chain.push(String((e as Error).stack ?? e));
        e = (e as { cause?: unknown }).cause;
      }
      if (chain.length > 0) console.debug(`[error cause] ${chain.join("\ncaused by: ")}`);
    });
  });
  const causes: string[] = [];
  const allowed = (text: string) =>
    (options.allowErrors ?? []).some((pattern) =>
      typeof pattern === "string" ? text.includes(pattern) : pattern.test(text),
    );
  page.on("pageerror", (error) => {
    const text = `${error.name}: ${error.message}`;
    if (!allowed(text)) problems.push(`page error: ${text}\n${error.stack ?? ""}`);
  });
  page.on("console", (message) => {
    if (message.type() === "debug" && message.text().startsWith("[error cause] "))
      causes.push(message.text());
    if (message.type() !== "error") return;
    const location = message.location();
    const text = `${message.text()} (${location.url}:${location.lineNumber})`;
    if (!allowed(text)) problems.push(`console error: ${text}`);
  });
  // The page's last API calls (POST answers with their envelope code), printed if the test fails.
  const calls: string[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith("/v1/")) return;
    const method = response.request().method();
    const line = `${method} ${url.pathname} ${response.status()}`;
    if (method === "GET") return void calls.push(line);
    void response
      .text()
      .then((body) => calls.push(`${line} ${body.slice(0, 160)}`))
      .catch(() => calls.push(line));
  });
  onTestFinished(async ({ task }) => {
    if (task.result?.state === "fail") await recordFailure(page, task.name, calls.slice(-20));
    await context.close().catch(() => undefined);
    if (problems.length > 0) {
      const because = causes.length > 0 ? `\n${causes.join("\n")}` : "";
      throw new Error(`the page reported ${problems.length} error(s):\n${problems.join("\n")}${because}`);
    }
  });
  return page;
}

/**
 * Waits until React has hydrated the element (`data-testid`): it then carries React's props
 * (on a page without hydration: until the islands bundle has wired the page).
 * `networkidle` is not enough on a loaded machine: the page's modules may still be
 * evaluating, and a field filled before hydration is reset by it (seen in CI: a login
 * form submitted with its e-mail gone and its password kept).
 */
export async function hydrated(page: Page, testId: string): Promise<void> {
  await page.waitForFunction(
    (id) => {
      const el = document.querySelector(`[data-testid="${id}"]`);
      if (el === null) return false;
      // React's handlers are on it, or the page does not hydrate and its islands are wired
      // (app/islands/main.ts marks <html data-islands>).
      return (
        Object.keys(el).some((key) => key.startsWith("__reactProps$")) ||
        document.documentElement.hasAttribute("data-islands")
      );
    },
    testId,
    { timeout: 60_000 },
  );
}

/**
 * A failed test's page: a screenshot under `E2E_ARTIFACTS` (default: the temp directory's
 * meridian-e2e), its URL and its last API calls on stderr, to tell a slow server from a
 * click that did not take.
 */
async function recordFailure(page: Page, name: string, calls: string[]): Promise<void> {
  if (page.isClosed()) return;
  const dir = process.env.E2E_ARTIFACTS ?? join(tmpdir(), "meridian-e2e");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name.replace(/[^\w-]+/g, "-").slice(0, 80)}-${Date.now()}.png`);
  await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
  process.stderr.write(
    `e2e failure "${name}": ${page.url()}\n  screenshot: ${file}\n  last API calls:\n    ${calls.join("\n    ")}\n`,
  );
}

/** A font Chromium drew some text with (CDP `CSS.getPlatformFontsForNode`). */
export interface UsedFont {
  familyName: string;
  /** True for a web font (one of ours), false for a font of the machine. */
  isCustomFont: boolean;
  glyphCount: number;
}

/** The fonts Chromium used for the text of the first element matching `selector`. */
export async function usedFonts(page: Page, selector: string): Promise<UsedFont[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send("DOM.enable");
    await cdp.send("CSS.enable");
    const { root } = await cdp.send("DOM.getDocument", { depth: -1, pierce: true });
    const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector });
    if (nodeId === 0) throw new Error(`usedFonts: nothing matches ${selector}`);
    const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
    return fonts;
  } finally {
    await cdp.detach();
  }
}

/** The site's @font-face families (app/styles/fonts.css) and the name of the font each holds. */
const SHIPPED = { "Inter Variable": "Inter", "Noto Sans Arabic Variable": "Noto Sans Arabic" } as const;

/**
 * Waits until the shipped `face` has loaded what the text of `selector` needs, then
 * checks Chromium drew that text with it (most glyphs) and the shipped faces alone: layout
 * measured after this is the same on any machine, whatever fonts it has.
 */
export async function expectShippedFont(
  page: Page,
  selector: string,
  face: keyof typeof SHIPPED = "Inter Variable",
): Promise<void> {
  await page.waitForFunction(
    ([sel, family]) => {
      const element = document.querySelector(sel);
      const text = element?.textContent?.trim() ?? "";
      if (element === null || text === "") return false;
      const style = getComputedStyle(element);
      // check() is true once every face of the family that the text needs has loaded.
      return document.fonts.check(`${style.fontWeight} ${style.fontSize} "${family}"`, text);
    },
    [selector, face] as const,
  );
  const fonts = await usedFonts(page, selector);
  // The text's own script comes from `face`; what that face's unicode-range leaves out (a
  // space between Arabic words) comes from the other shipped face, never from the machine.
  const shipped: readonly string[] = Object.values(SHIPPED);
  const foreign = fonts.filter((f) => !f.isCustomFont || !shipped.includes(f.familyName));
  const own = fonts.find((f) => f.isCustomFont && f.familyName === SHIPPED[face]);
  const most = Math.max(0, ...fonts.map((f) => f.glyphCount));
  if (own === undefined || own.glyphCount < most || foreign.length > 0) {
    throw new Error(`${selector} is drawn with ${JSON.stringify(fonts)}, not the shipped ${face}`);
  }
}
