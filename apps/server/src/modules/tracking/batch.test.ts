import { type TrackingRecord, trackingRecordSchema } from "@meridian/contracts";
import { describe, expect, it } from "vitest";
import { sampleRecord } from "../../test/tracking.ts";
import { decodeBatch, encodeBatch } from "./batch.ts";
import { toRow } from "./rows.ts";
import { RECORD_FIELDS } from "./validate.ts";

const meta = { receivedAt: 1_763_000_000_123, isBot: true, ip: "2001:db8::1", pfb: 'c"7\n' };

/** An upload as JSON.parse gives it: varied per-event fields, shared context, odd strings and numbers. */
function upload(): Record<string, unknown>[] {
  return Array.from({ length: 50 }, (_, seq) => ({
    ...sampleRecord({
      seq,
      log_seq: 100 + seq,
      timestamp: 1_763_000_000_000 + seq * 7,
      type: seq % 3 === 0 ? 1 : 3,
      title: seq === 4 ? "emoji \u{1F600} and a lone \ud800 surrogate" : "Apps",
      event_tracking_ext: seq % 2 === 0 ? { pos: seq, nested: { a: [1, 2.5, null] } } : [{ x: "y" }],
      curr_page_ext: {},
      first_day: seq < 10,
      screen_width: seq === 9 ? 2 ** 40 : 1280,
      timezone_offset: -0,
      page_status: seq === 49 ? 1 : 0,
    }),
    // unknown keys: validation lets them through, zod strips them, so must the batch
    surplus: { deep: [seq] },
  }));
}

describe("accepted upload encoding (batch.ts)", () => {
  const fields = RECORD_FIELDS;

  it("lists every field of the schema", () => {
    expect([...fields].sort()).toEqual(Object.keys(sampleRecord()).sort());
  });

  it("gives back exactly what zod makes of each event, and the same rows", () => {
    const events = upload();
    const decoded = decodeBatch(encodeBatch(events as unknown as TrackingRecord[], meta, fields));
    expect(decoded.meta).toEqual(meta);
    expect(decoded.records).toHaveLength(events.length);
    decoded.records.forEach((record, index) => {
      const zod = trackingRecordSchema.parse(events[index]);
      // JSON has no -0 (timezone_offset above): it comes back 0, as it is stored anyway
      const json = JSON.parse(JSON.stringify(zod)) as TrackingRecord;
      expect(record).toEqual(json);
      expect(toRow(record, decoded.meta)).toEqual(toRow(json, meta));
      expect(toRow(record, decoded.meta).extra).toBe(toRow(zod, meta).extra);
    });
  });

  it("writes a field shared by every event once", () => {
    const text = encodeBatch(upload() as unknown as TrackingRecord[], meta, fields);
    expect(text.split('"meridian.test"').length - 1).toBe(1);
    expect(text).not.toContain("surplus");
    // 50 events of about 1 KB each as JSON; the context is written once
    expect(text.length).toBeLessThan(JSON.stringify(upload()).length / 4);
  });

  it("keeps a single event and refuses a text it did not write", () => {
    const one = [sampleRecord({ seq: 3 })];
    expect(decodeBatch(encodeBatch(one, meta, fields)).records).toEqual(one);
    expect(() => decodeBatch("[2]")).toThrow(/unknown encoding/);
  });
});
