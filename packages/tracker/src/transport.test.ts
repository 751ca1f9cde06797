// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { splitBodies } from "./transport.ts";

describe("splitBodies", () => {
  it("cuts at 50 items and at 64 KiB, keeping order and every item once", () => {
    const small = Array.from({ length: 120 }, (_, i) => ({ i }));
    expect(splitBodies(small, (x) => x).map((b) => b.items.length)).toEqual([50, 50, 20]);

    const big = Array.from({ length: 20 }, (_, i) => ({ i, pad: "é".repeat(5_000) }));
    const bodies = splitBodies(big, (x) => x);
    for (const { body, items } of bodies) {
      expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(64 * 1024);
      expect(JSON.parse(body)).toEqual(items);
    }
    expect(bodies.flatMap((b) => b.items.map((x) => x.i))).toEqual([...Array(20).keys()]);
    expect(bodies.length).toBe(4);
  });

  it("sends an item larger than the limit alone", () => {
    const bodies = splitBodies([{ a: 1 }, { pad: "x".repeat(70_000) }, { b: 2 }], (x) => x);
    expect(bodies.map((b) => b.items.length)).toEqual([1, 1, 1]);
  });
});
