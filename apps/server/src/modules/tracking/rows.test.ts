import type { TrackingRecord } from "@meridian/contracts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbitraryMeta, arbitraryRecord, sampleRecord } from "../../test/tracking.ts";
import { COLUMN_NAMES } from "./columns.ts";
import { DERIVED, EXTRA_FIELDS, EXTRA_TAIL_FIELDS, partialExtraOf, toRow } from "./rows.ts";

const pick = (record: TrackingRecord, fields: readonly string[]) =>
  Object.fromEntries(fields.map((field) => [field, (record as unknown as Record<string, unknown>)[field]]));

describe("column derivations (DERIVED)", () => {
  it("cover every column but extra, in toRow's order", () => {
    expect([...Object.keys(DERIVED), "extra"]).toEqual(COLUMN_NAMES);
  });

  it("read only the fields they name: records agreeing on them give the same value", () => {
    fc.assert(
      fc.property(arbitraryRecord, arbitraryRecord, arbitraryMeta, (a, other, meta) => {
        for (const [column, { from, value }] of Object.entries(DERIVED)) {
          const b = { ...other, ...pick(a, from) } as TrackingRecord;
          expect({ column, value: value(b, meta) }).toEqual({ column, value: value(a, meta) });
        }
      }),
      { numRuns: 300 },
    );
  });

  it("make toRow's columns", () => {
    fc.assert(
      fc.property(arbitraryRecord, arbitraryMeta, (record, meta) => {
        const row = toRow(record, meta);
        for (const [column, { value }] of Object.entries(DERIVED)) {
          expect(row[column as keyof typeof row]).toBe(value(record, meta));
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe("partialExtraOf", () => {
  it("over every extra field writes what toRow's whole extra holds, character for character", () => {
    fc.assert(
      fc.property(arbitraryRecord, arbitraryMeta, (record, meta) => {
        expect(partialExtraOf(EXTRA_FIELDS)(record)).toBe(toRow(record, meta).extra);
      }),
      { numRuns: 200 },
    );
  });

  it("holds its fields plus the clamped or cut values, and depends on nothing else", () => {
    const own = ["title", "event_tracking_ext"];
    fc.assert(
      fc.property(arbitraryRecord, arbitraryRecord, (a, other) => {
        const extra = JSON.parse(partialExtraOf(own)(a)) as Record<string, unknown>;
        expect(pick(extra as unknown as TrackingRecord, own)).toEqual(
          JSON.parse(JSON.stringify(pick(a, own))),
        );
        for (const key of Object.keys(extra)) expect([...own, ...EXTRA_TAIL_FIELDS]).toContain(key);
        const b = { ...other, ...pick(a, [...own, ...EXTRA_TAIL_FIELDS]) } as TrackingRecord;
        expect(partialExtraOf(own)(b)).toBe(partialExtraOf(own)(a));
      }),
      { numRuns: 200 },
    );
    const clamped = sampleRecord({ seq: 2 ** 40, browser: "B".repeat(80) });
    expect(JSON.parse(partialExtraOf([])(clamped))).toEqual({ seq: 2 ** 40, browser: "B".repeat(80) });
    expect(partialExtraOf([])(sampleRecord())).toBe("{}");
  });

  it("refuses a field that is not an extra field", () => {
    expect(() => partialExtraOf(["uid"])).toThrow(/unknown field/);
    expect(() => partialExtraOf(['x"]: 1 }); globalThis.hacked = 1; ({ "'])).toThrow(/unknown field/);
  });
});
