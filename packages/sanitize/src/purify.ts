import createDOMPurify, { type DOMPurify, type WindowLike } from "dompurify";

type JsdomModule = typeof import("jsdom");

let instance: DOMPurify | undefined;

/**
 * One DOMPurify instance per process or page, configured by `setup` once. In a
 * browser it runs over `window`; on the server over a jsdom window created on
 * first use.
 *
 * NOTE: jsdom is loaded with a runtime `require` built from `process`, never with
 * an `import` statement or `import()` of a literal, so bundlers cannot follow it
 * and the browser bundle never contains it (`browser-bundle.test.ts` checks). A
 * synchronous load keeps `sanitizeHtml` synchronous for React rendering on both sides.
 */
export function getPurifier(setup: (purifier: DOMPurify) => void): DOMPurify {
  if (instance) return instance;
  const purifier = createDOMPurify(browserWindow() ?? serverWindow());
  if (!purifier.isSupported)
    throw new Error("@meridian/sanitize: DOMPurify is not supported in this environment");
  setup(purifier);
  instance = purifier;
  return purifier;
}

function browserWindow(): WindowLike | undefined {
  const w = (globalThis as { window?: WindowLike & { document?: Document } }).window;
  return w?.document && typeof w.document.createElement === "function" ? w : undefined;
}

function serverWindow(): WindowLike {
  const proc = (globalThis as { process?: NodeJS.Process }).process;
  const moduleApi = proc?.getBuiltinModule?.("node:module");
  if (!moduleApi) throw new Error("@meridian/sanitize: no window and no Node.js runtime to create one");
  const { JSDOM } = moduleApi.createRequire(import.meta.url)("jsdom") as JsdomModule;
  return new JSDOM("<!doctype html><html><body></body></html>").window as unknown as WindowLike;
}
