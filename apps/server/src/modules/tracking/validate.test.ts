import { trackingRecordSchema } from "@meridian/contracts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbitraryUpload, sampleRecord } from "../../test/tracking.ts";
import { encodeSplit, splitFields } from "./batch.ts";
import { COLUMN_NAMES } from "./columns.ts";
import { toRow } from "./ingest.ts";
import { EXTRA_FIELDS } from "./rows.ts";
import { isTrackingRecord, RECORD_FIELDS, scanUpload } from "./validate.ts";

const base = sampleRecord({ event_tracking_ext: { pos: 3 } }) as unknown as Record<string, unknown>;

/**
 * Values that are wrong for some field or other: each is tried in every field. Only
 * what JSON.parse can produce (the compiled check refuses objects with another
 * prototype, which zod may accept: such an event would merely go through zod).
 */
const ODD: unknown[] = [
  undefined,
  null,
  "",
  "x",
  "b12",
  "/",
  "online",
  "test123",
  0,
  1,
  -1,
  1.5,
  99,
  2 ** 53,
  true,
  false,
  [],
  [{}],
  [1],
  {},
  { a: 1 },
];

describe("isTrackingRecord (compiled from trackingRecordSchema)", () => {
  it("accepts what zod accepts for the sample and never accepts what zod refuses", () => {
    expect(isTrackingRecord(base)).toBe(true);
    let refused = 0;
    for (const key of Object.keys(base)) {
      for (const value of ODD) {
        const candidate = { ...base, [key]: value };
        if (value === undefined) delete candidate[key];
        const zod = trackingRecordSchema.safeParse(candidate).success;
        const fast = isTrackingRecord(candidate);
        if (fast) expect({ key, value, zod }).toEqual({ key, value, zod: true });
        if (!zod) refused++;
        // where zod accepts, so does the compiled check (no needless trips through zod)
        if (zod) expect({ key, value, fast }).toEqual({ key, value, fast: true });
      }
    }
    expect(refused).toBeGreaterThan(500);
    expect(isTrackingRecord([base])).toBe(false);
    expect(isTrackingRecord(null)).toBe(false);
  });

  it("ignores unknown keys, as zod strips them", () => {
    expect(isTrackingRecord({ ...base, surplus: { deep: [1] } })).toBe(true);
  });
});

/**
 * Uploads as JSON.parse gives them: valid events (fields shared or not), some then
 * broken: a field set to an odd or random JSON value or removed, an unknown key added,
 * an element that is no object.
 */
const brokenUpload = fc
  .tuple(
    arbitraryUpload,
    // half the uploads untouched
    fc.oneof(
      fc.constant([]),
      fc.array(
        fc.record({
          index: fc.nat(49),
          field: fc.constantFrom(...RECORD_FIELDS, "surplus"),
          value: fc.oneof(fc.constantFrom(...ODD), fc.jsonValue()),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    ),
    fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 4 },
      { arbitrary: fc.tuple(fc.nat(49), fc.constantFrom(null, "x", 1, [], [{}])), weight: 1 },
    ),
  )
  .map(([events, changes, element]) => {
    const copy = JSON.parse(JSON.stringify(events)) as unknown[];
    for (const { index, field, value } of changes) {
      const event = copy[index % copy.length] as Record<string, unknown>;
      if (value === undefined) delete event[field];
      else event[field] = value;
    }
    if (element) copy[element[0] % copy.length] = element[1];
    return copy;
  });

describe("the ingest's checks against zod (fast-check)", () => {
  it("isTrackingRecord accepts an element exactly when zod does", () => {
    fc.assert(
      fc.property(brokenUpload, (events) => {
        for (const event of events) {
          const zod = trackingRecordSchema.safeParse(event).success;
          expect({ event, fast: isTrackingRecord(event) }).toEqual({ event, fast: zod });
        }
      }),
      { numRuns: 500 },
    );
  });

  it("scanUpload checks every event as isTrackingRecord does and splits them as splitFields does", () => {
    let whole = 0;
    fc.assert(
      fc.property(brokenUpload, (events) => {
        const scanned = scanUpload(events);
        const valid = events.every(isTrackingRecord);
        expect(scanned !== undefined).toBe(valid);
        if (scanned === undefined || !events.every(isTrackingRecord)) return;
        whole++;
        const split = splitFields(events, RECORD_FIELDS);
        expect(scanned).toEqual(split);
        // what is stored, key order included
        const meta = { receivedAt: 1, isBot: false, ip: "", pfb: "" };
        expect(encodeSplit(scanned, events.length, meta)).toBe(encodeSplit(split, events.length, meta));
      }),
      { numRuns: 500 },
    );
    // both outcomes were tried
    expect(whole).toBeGreaterThan(50);
    expect(whole).toBeLessThan(450);
  });
});

describe("toRow", () => {
  const meta = { receivedAt: 1, isBot: false, ip: "203.0.113.9", pfb: "" };

  it("stores each field once: the columns plus `extra` give the event back", () => {
    const record = sampleRecord({ seq: 7, event_tracking_ext: { pos: 3 }, ip: "198.51.100.1" });
    const row = toRow(record, meta);
    expect(Object.keys(row)).toEqual(COLUMN_NAMES);
    const extra = JSON.parse(row.extra) as Record<string, unknown>;
    const back = {
      ...extra,
      timestamp: row.ts,
      uid: row.uid,
      page_unique_id: row.page_unique_id,
      seq: row.seq,
      log_seq: row.log_seq,
      type: row.type,
      event_tracking_id: row.event_tracking_id,
      curr_page: row.curr_page,
      page_status: row.page_status,
      session_id: row.session_id,
      device_id: row.device_id,
      first_day: row.first_day === 1,
      user_language: row.user_language,
      browser: row.browser,
      sys: row.sys,
      screen_width: row.screen_width,
      screen_height: row.screen_height,
    };
    expect(back).toEqual(record);
    expect(Object.keys(extra)).toEqual([...EXTRA_FIELDS]);
    expect(extra).not.toHaveProperty("uid");
    expect(extra.ip).toBe("198.51.100.1");
    expect(row.ip).toBe("203.0.113.9");
  });

  it("keeps the sent value in `extra` where a column clamps or cuts it", () => {
    const browser = "B".repeat(80);
    const row = toRow(sampleRecord({ browser, screen_width: 2 ** 40 }), meta);
    expect(row.browser).toHaveLength(64);
    expect(row.screen_width).toBe(2_147_483_647);
    expect(JSON.parse(row.extra)).toMatchObject({ browser, screen_width: 2 ** 40 });
  });
});
