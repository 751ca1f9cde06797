import type { TrackingRecord } from "@meridian/contracts";
import type { UploadMeta } from "./rows.ts";

/**
 * One accepted upload as the SQLite writer keeps it until it is expanded into
 * `tracking_events` (see sqlite-writer.worker.ts): its validated events and what the
 * server adds to them, as one compact JSON text.
 *
 * Compact: the events of one upload share most fields (the app, the visitor, the device,
 * the page), so each field is written once when every event has the same value and as a
 * list of values otherwise. Only the fields of the schema are written (`fields`, the
 * keys of trackingRecordSchema), so unknown keys are dropped as zod drops them.
 *
 * Layout: `[1, receivedAt, isBot, ip, pfb, count, {field: shared value}, {field: [value per event]}]`.
 */
const VERSION = 1;

export function encodeBatch(
  records: readonly TrackingRecord[],
  meta: UploadMeta,
  fields: readonly string[],
): string {
  const shared: Record<string, unknown> = {};
  const varying: Record<string, unknown[]> = {};
  const events = records as readonly Record<string, unknown>[];
  const count = events.length;
  for (const field of fields) {
    const first = events[0]?.[field];
    let same = typeof first !== "object" || first === null;
    for (let i = 1; same && i < count; i++) same = events[i]?.[field] === first;
    if (same) {
      shared[field] = first;
      continue;
    }
    const values: unknown[] = new Array(count);
    for (let i = 0; i < count; i++) values[i] = events[i]?.[field];
    varying[field] = values;
  }
  return JSON.stringify([
    VERSION,
    meta.receivedAt,
    meta.isBot ? 1 : 0,
    meta.ip,
    meta.pfb,
    count,
    shared,
    varying,
  ]);
}

export interface DecodedBatch {
  records: TrackingRecord[];
  meta: UploadMeta;
  /** The fields whose value differs between the events (objects always count as differing). */
  varying: string[];
}

/** The events and meta `encodeBatch` wrote. Throws on a text it did not write. */
export function decodeBatch(text: string): DecodedBatch {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed) || parsed[0] !== VERSION || parsed.length !== 8) {
    throw new Error("tracking batch: unknown encoding");
  }
  const [, receivedAt, isBot, ip, pfb, count, shared, varying] = parsed as [
    number,
    number,
    number,
    string,
    string,
    number,
    Record<string, unknown>,
    Record<string, unknown[]>,
  ];
  const columns = Object.entries(varying);
  const records: TrackingRecord[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const record: Record<string, unknown> = { ...shared };
    for (const [field, values] of columns) record[field] = values[i];
    records[i] = record as unknown as TrackingRecord;
  }
  return { records, meta: { receivedAt, isBot: isBot === 1, ip, pfb }, varying: Object.keys(varying) };
}
