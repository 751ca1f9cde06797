import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sampleRecord } from "../../test/tracking.ts";
import { COLUMN_NAMES, copyField, copyRows, packRows, unpackRows } from "./columns.ts";
import { toRow } from "./ingest.ts";

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

describe("PostgreSQL COPY text", () => {
  it("escapes backslash, tab, newline and return, and nothing else", () => {
    const spelledOut = (text: string) =>
      text.replaceAll("\\", "\\\\").replaceAll("\t", "\\t").replaceAll("\n", "\\n").replaceAll("\r", "\\r");
    const odd = fc.constantFrom(
      '"',
      "\\",
      "\n",
      "\r",
      "\t",
      "\u0000",
      "\u2028",
      "\ud800",
      "\u{1F600}",
      "é",
      "\\.",
      ",",
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ unit: "binary" }), odd)), (parts) => {
        const text = parts.join("");
        expect(copyField(text)).toBe(spelledOut(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("writes a line per row, columns in insert order, numbers bare", () => {
    const row = toRow(sampleRecord({ uid: "a\tb\\c", seq: 3, title: "two\nlines" }), meta);
    const text = copyRows([row, row]);
    const lines = text.split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("");
    const fields = (lines[0] ?? "").split("\t");
    expect(fields).toHaveLength(COLUMN_NAMES.length);
    expect(fields[COLUMN_NAMES.indexOf("uid")]).toBe("a\\tb\\\\c");
    expect(fields[COLUMN_NAMES.indexOf("seq")]).toBe("3");
    expect(JSON.parse((fields[COLUMN_NAMES.indexOf("extra")] ?? "").replaceAll("\\\\", "\\")).title).toBe(
      "two\nlines",
    );
  });
});
