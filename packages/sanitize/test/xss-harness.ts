import { readFileSync } from "node:fs";
import { type DOMWindow, JSDOM, VirtualConsole } from "jsdom";
import { ALLOWED_ATTRIBUTES, ALLOWED_TAGS } from "../src/html.ts";

/** One DOMPurify fixture (see fixtures/xss-vectors.json, Apache-2.0 OR MPL-2.0, Cure53 and contributors). */
export interface XssVector {
  title: string | null;
  payload: string;
  expected: string | string[];
  xss: boolean;
}

export function loadVectors(): XssVector[] {
  const file = new URL("./fixtures/xss-vectors.json", import.meta.url);
  const parsed = JSON.parse(readFileSync(file, "utf8")) as { licence: string; vectors: XssVector[] };
  if (!parsed.licence.includes("Apache-2.0")) throw new Error("fixture lost its licence notice");
  return parsed.vectors;
}

const URL_ATTRIBUTES = [
  "href",
  "src",
  "action",
  "formaction",
  "xlink:href",
  "poster",
  "background",
  "cite",
  "data",
];
const ALLOWED_SCHEMES = new Set(["http:", "https:", "mailto:", "tel:", "ftp:", "blob:", "meridian:"]);
const RASTER_DATA_URL = /^data:image\/(?:png|jpeg|gif|webp);base64,/i;

/** Everything in sanitised HTML that breaks the docs/product.md §5 rules, judged on the parsed DOM. */
export function findStructuralProblems(html: string): string[] {
  const problems: string[] = [];
  const body = inspectionBody();
  // innerHTML parses as the body's children would, without a new window per call.
  body.innerHTML = html;
  const allowedTags = new Set(ALLOWED_TAGS);
  const allowedAttributes = new Set(ALLOWED_ATTRIBUTES);
  for (const el of Array.from(body.querySelectorAll("*"))) {
    const tag = el.localName;
    if (tag === "script") problems.push("script element");
    if (!allowedTags.has(tag)) problems.push(`tag <${tag}> outside the allow-list`);
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      if (name.startsWith("on")) problems.push(`event handler ${name} on <${tag}>`);
      // DOMPurify cannot remove `is` once parsed; it empties it instead, which is inert.
      const inertIs = name === "is" && attr.value === "";
      if (!allowedAttributes.has(name) && !name.startsWith("aria-") && !inertIs) {
        problems.push(`attribute ${name} on <${tag}>`);
      }
      if (URL_ATTRIBUTES.includes(name) && !isAllowedUrl(attr.value)) {
        problems.push(`${name}=${JSON.stringify(attr.value)} on <${tag}>`);
      }
    }
  }
  return problems;
}

let inspection: HTMLElement | undefined;
function inspectionBody(): HTMLElement {
  inspection ??= new JSDOM("<!doctype html><html><body></body></html>").window.document.body;
  return inspection;
}

function isAllowedUrl(value: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(value, "https://page.example/dir/");
  } catch {
    return false;
  }
  if (parsed.protocol === "data:") return RASTER_DATA_URL.test(value.trim());
  return ALLOWED_SCHEMES.has(parsed.protocol);
}

const EVENTS = [
  "load",
  "error",
  "click",
  "mouseover",
  "mouseenter",
  "focus",
  "blur",
  "animationstart",
  "toggle",
];

/**
 * Runs `html` in jsdom with scripts enabled through two sinks (parsed as the page,
 * and assigned to `innerHTML`), fires the usual events at every element and clicks
 * every link; returns how many times `alert`, `confirm` or `prompt` was called.
 */
export async function countAlertsInJsdom(html: string): Promise<number> {
  let calls = 0;
  const hook = (window: DOMWindow): void => {
    const record = () => {
      calls += 1;
      return undefined;
    };
    Object.assign(window, { alert: record, confirm: record, prompt: record });
  };
  const options = {
    runScripts: "dangerously" as const,
    url: "https://page.example/",
    virtualConsole: new VirtualConsole(),
    beforeParse: hook,
  };
  const asPage = new JSDOM(`<!doctype html><html><body>${html}</body></html>`, options);
  const viaInnerHtml = new JSDOM("<!doctype html><html><body><div id=sink></div></body></html>", options);
  const sink = viaInnerHtml.window.document.getElementById("sink");
  if (sink) sink.innerHTML = html;

  for (const dom of [asPage, viaInnerHtml]) {
    const { window } = dom;
    for (const el of Array.from(window.document.querySelectorAll("*"))) {
      for (const type of EVENTS) el.dispatchEvent(new window.Event(type));
      if (el.localName === "a") (el as HTMLAnchorElement).click();
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 20));
  asPage.window.close();
  viaInnerHtml.window.close();
  return calls;
}
