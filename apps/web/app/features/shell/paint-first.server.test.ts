import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { paintFirstTransform } from "./paint-first.server.ts";
import { DEFERRED_MODULE_TYPE, DEFERRED_PRELOAD_REL, routePaintsFirst } from "./paint-first.ts";

const page = [
  '<!DOCTYPE html><html><head><link rel="stylesheet" href="/a.css"/></head><body><p>Prix: 1 000 € — 日本語</p>',
  '<link rel="modulepreload" href="/assets/manifest.js" nonce="n1"/>',
  '<link rel="modulepreload" href="/assets/entry.client.js" nonce="n1"/>',
  '<script nonce="n1">window.__reactRouterContext = {};</script>',
  '<script nonce="n1" type="module" async="">import "/assets/manifest.js";\nimport("/assets/entry.client.js");</script>',
  '<script nonce="n1">window.__reactRouterContext.streamController.enqueue("type=\\"module\\" async=\\"\\"");</script>',
  "</body></html>",
].join("");

async function run(chunks: Buffer[]): Promise<string> {
  return (await buffer(Readable.from(chunks).pipe(paintFirstTransform()))).toString("utf8");
}

const expected = page
  .replaceAll(' rel="modulepreload"', ` rel="${DEFERRED_PRELOAD_REL}"`)
  .replace('nonce="n1" type="module" async=""', `nonce="n1" type="${DEFERRED_MODULE_TYPE}" async=""`);

describe("paintFirstTransform", () => {
  it("renames the module preloads and the module script, and nothing else", async () => {
    expect(await run([Buffer.from(page)])).toBe(expected);
    expect(expected).not.toContain('rel="modulepreload"');
    expect(expected).toContain('enqueue("type=\\"module\\" async=\\"\\"")');
  });

  it("gives the same output however the bytes are split, across tags and inside characters", async () => {
    const bytes = Buffer.from(page);
    for (let size = 1; size <= 64; size += 1) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
      expect(await run(chunks)).toBe(expected);
    }
  });

  it("leaves a page without React Router scripts untouched", async () => {
    const plain = '<html><body><p>type="module" async=""</p></body></html>';
    expect(await run([Buffer.from(plain)])).toBe(plain);
  });
});

describe("routePaintsFirst", () => {
  it("is on when one matched route asks", () => {
    expect(routePaintsFirst([undefined, { antd: false }, { paintFirst: true }])).toBe(true);
    expect(routePaintsFirst([undefined, { antd: false }])).toBe(false);
    expect(routePaintsFirst([])).toBe(false);
  });
});
