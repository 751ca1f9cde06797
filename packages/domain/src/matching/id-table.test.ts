import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IntTable } from "./id-table.ts";

describe("IntTable", () => {
  it("behaves like a Map under any mix of set, delete and get", () => {
    const key = fc.oneof(
      fc.integer({ min: 0, max: 64 }),
      fc.maxSafeNat(),
      fc.integer({ min: -1000, max: 1000 }),
    );
    const op = fc.oneof(
      fc.record({ k: fc.constant("set" as const), key, value: fc.integer({ min: 1, max: 1_000_000 }) }),
      fc.record({ k: fc.constant("delete" as const), key }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const table = new IntTable(4);
        const model = new Map<number, number>();
        for (const o of ops) {
          if (o.k === "set") {
            table.set(o.key, o.value);
            model.set(o.key, o.value);
          } else {
            expect(table.delete(o.key)).toBe(model.delete(o.key));
          }
          expect(table.size).toBe(model.size);
        }
        for (const [k, v] of model) expect(table.get(k)).toBe(v);
        for (const o of ops) if (!model.has(o.key)) expect(table.get(o.key)).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
});
