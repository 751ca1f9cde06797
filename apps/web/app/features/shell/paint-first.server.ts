import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { DEFERRED_MODULE_TYPE, DEFERRED_PRELOAD_REL } from "./paint-first.ts";

// What React Router's <Scripts> renders (react-router lib/dom/ssr/components.js): its
// preloads as `<link rel="modulepreload" href=… nonce=…/>` and one inline
// `<script nonce=… type="module" async="">` that imports the route modules and the entry.
const PRELOAD = / rel="modulepreload"/g;
const MODULE_SCRIPT = /(<script\b[^>]*?) type="module" async=""/;

/**
 * The server half of paint-first hydration (paint-first.ts): rewrites the streamed HTML so
 * React Router's module preloads and module script wait for PAINT_FIRST_BOOT_SCRIPT.
 * Streams: text is passed on up to the last complete tag of each chunk (the patterns sit
 * inside one tag), multi-byte characters split across chunks are decoded whole, and once
 * the module script has gone by the rest passes through untouched.
 */
export function paintFirstTransform(): Transform {
  const decoder = new StringDecoder("utf8");
  let held = "";
  let done = false;
  const rewrite = (html: string): string => {
    if (done) return html;
    const out = html.replace(PRELOAD, ` rel="${DEFERRED_PRELOAD_REL}"`);
    const moved = out.replace(MODULE_SCRIPT, `$1 type="${DEFERRED_MODULE_TYPE}" async=""`);
    if (moved !== out) done = true;
    return moved;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const text = held + decoder.write(chunk);
      const cut = done ? text.length : text.lastIndexOf(">") + 1;
      held = text.slice(cut);
      callback(null, rewrite(text.slice(0, cut)));
    },
    flush(callback) {
      callback(null, rewrite(held + decoder.end()));
    },
  });
}
