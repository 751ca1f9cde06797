import { describe, expect, it, vi } from "vitest";
import { countAlertsInJsdom, findStructuralProblems, loadVectors } from "../test/xss-harness.ts";
import { sanitizeHtml } from "./html.ts";

const vectors = loadVectors();
const xssVectors = vectors.filter((v) => v.xss);
const label = (i: number) => `#${i} ${vectors[i]?.title ?? vectors[i]?.payload.slice(0, 60) ?? ""}`;
const clean = (payload: string) => sanitizeHtml(payload, { warn: false, origin: "https://page.example" });

describe("DOMPurify xss vectors (server: DOMPurify over jsdom)", () => {
  it("has the fixture", () => {
    expect(vectors).toHaveLength(223);
    expect(xssVectors).toHaveLength(141);
  });

  it("the alert detector sees script that runs (control)", async () => {
    expect(await countAlertsInJsdom("<img src=x onerror=alert(1)>")).toBeGreaterThan(0);
    expect(await countAlertsInJsdom("<script>alert(1)</script>")).toBeGreaterThan(0);
    expect(await countAlertsInJsdom('<a href="javascript:alert(1)">x</a>')).toBeGreaterThan(0);
  });

  it("no xss vector calls alert once sanitised", async () => {
    const outputs = vectors.map((v, i) => ({ i, html: v.xss ? clean(v.payload) : "" })).filter((o) => o.html);
    // One document for all outputs keeps this fast; only on a failure look vector by vector to name it.
    const batch = outputs.map((o) => `<div>${o.html}</div>`).join("");
    if ((await countAlertsInJsdom(batch)) === 0) return;
    const fired: string[] = [];
    for (const o of outputs) if ((await countAlertsInJsdom(o.html)) > 0) fired.push(label(o.i));
    expect(fired).toEqual(["(the batch fired, but no single vector did)"]);
  });

  it("no vector leaves a script, an event handler or a URL outside the allow-list", () => {
    const problems: string[] = [];
    for (const [i, vector] of vectors.entries()) {
      for (const p of findStructuralProblems(clean(vector.payload))) problems.push(`${label(i)}: ${p}`);
    }
    expect(problems).toEqual([]);
  });

  it("warns on the console for blocked URLs by default", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      sanitizeHtml('<a href="javascript:alert(1)">x</a>');
      expect(warn).toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});
