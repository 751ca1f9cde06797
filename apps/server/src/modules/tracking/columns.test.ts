import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COLUMN_NAMES, columnArrays, packRows, quoted, unpackRows } from "./columns.ts";
import { toRow } from "./ingest.ts";
import { sampleRecord } from "./test-support.ts";

const meta = { receivedAt: 5, isBot: false, ip: "203.0.113.9", pfb: "" };

describe("packed rows for the SQLite writer", () => {
  it("unpack to every column of every row, in insert order, extra as it was", () => {
    const rows = [0, 1, 2].map((seq) =>
      toRow(
        sampleRecord({ seq, title: 'quote " and \\ and\nnewline', event_tracking_ext: { s: "\n" } }),
        meta,
      ),
    );
    const values = unpackRows(packRows(rows), rows.length);
    expect(values).toEqual(rows.flatMap((row) => COLUMN_NAMES.map((name) => row[name])));
    expect(JSON.parse(String(values[COLUMN_NAMES.length - 1])).title).toContain("\n");
  });

  it("refuse a row count that does not match", () => {
    const packed = packRows([toRow(sampleRecord(), meta)]);
    expect(() => unpackRows(packed, 2)).toThrow(/row count/);
  });
});

describe("PostgreSQL column arrays", () => {
  it("quote any text as escaping backslash and double quote does", () => {
    const spelledOut = (text: string) => `"${text.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
    const odd = fc.constantFrom(
      '"',
      "\\",
      "\n",
      "\u0000",
      "\u001f",
      "\u007f",
      "\u2028",
      "\ud800",
      "\udc00",
      "\u{1F600}",
      "é",
      "{",
      ",",
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ unit: "binary" }), odd)), (parts) => {
        const text = parts.join("");
        expect(quoted(text)).toBe(spelledOut(text));
      }),
      { numRuns: 2000 },
    );
    expect(quoted('{"a":"b\\"c"}')).toBe('"{\\"a\\":\\"b\\\\\\"c\\"}"');
  });

  it("quote text elements and leave numbers bare", () => {
    const arrays = columnArrays([toRow(sampleRecord({ uid: 'a"b\\c', seq: 3 }), meta)]);
    expect(arrays[COLUMN_NAMES.indexOf("uid")]).toBe('{"a\\"b\\\\c"}');
    expect(arrays[COLUMN_NAMES.indexOf("seq")]).toBe("{3}");
  });
});
