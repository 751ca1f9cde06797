import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { fillGzipTemplate, gzipTemplate } from "./gzip-template.ts";

describe("gzip templates", () => {
  it("decompress to the text with every hole filled", () => {
    const page = `<script nonce="@@">a</script>${"<p>static é ü 日本</p>".repeat(500)}<script nonce="@@">b</script>@@@@`;
    const template = gzipTemplate(page, "@@");
    for (const nonce of ["abc+/=", "x".repeat(24)]) {
      const out = gunzipSync(fillGzipTemplate(template, nonce)).toString("utf8");
      expect(out).toBe(page.replaceAll("@@", nonce));
    }
  });

  it("handle a text without holes and an empty one", () => {
    expect(gunzipSync(fillGzipTemplate(gzipTemplate("plain", "@@"), "n")).toString()).toBe("plain");
    expect(gunzipSync(fillGzipTemplate(gzipTemplate("", "@@"), "n")).toString()).toBe("");
  });

  it("keeps a page small", () => {
    const page = `<html>${'<div class="row">Trade crypto with a clear head</div>'.repeat(400)}</html>`;
    expect(fillGzipTemplate(gzipTemplate(page, "@@"), "n").length).toBeLessThan(page.length / 20);
  });
});
