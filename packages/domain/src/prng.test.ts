import { describe, expect, it } from "vitest";
import { hash32, Prng } from "./prng.ts";

describe("Prng", () => {
  it("is reproducible from its seed and differs across seeds", () => {
    const draw = (seed: number) => {
      const r = new Prng(seed);
      return Array.from({ length: 8 }, () => r.nextU32());
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it("stays in range and is roughly uniform", () => {
    const r = new Prng(1);
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 100_000; i++) {
      const x = r.int(0, 9);
      expect(x >= 0 && x <= 9).toBe(true);
      buckets[x] = (buckets[x] ?? 0) + 1;
    }
    for (const b of buckets) expect(Math.abs(b - 10_000)).toBeLessThan(600);
  });

  it("hashes the same parts to the same value", () => {
    expect(hash32(1, 2, 3)).toBe(hash32(1, 2, 3));
    expect(hash32(1, 2, 3)).not.toBe(hash32(3, 2, 1));
    expect(hash32(2 ** 40)).not.toBe(hash32(0));
  });
});
