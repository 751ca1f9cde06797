import {
  Code,
  TRACK_BATCH_MAX,
  type TrackingRecord,
  type TrackingRejection,
  trackingRecordSchema,
} from "@meridian/contracts";
import { AppError } from "../../platform/errors.ts";
import type { SplitFields } from "./batch.ts";
import { isTrackingRecord, scanUpload } from "./validate.ts";

export { hostOf, pathOf, toRow, type UploadMeta } from "./rows.ts";

/** Rejected events whose failing fields are named; the rest are listed by index only. */
export const DETAILED_REJECTIONS = 5;
/** Failing fields named per rejected event (zod lists every missing field of an empty object). */
export const ISSUES_PER_REJECTION = 3;
const MAX_ISSUE_MESSAGE = 120;

export interface ParsedUpload {
  received: number;
  records: TrackingRecord[];
  rejected: TrackingRejection[];
  /** The records' fields split as batch.ts stores them, when every event was valid (computed while checking). */
  split?: SplitFields | undefined;
}

/**
 * Reads one upload (the raw body text): the whole request is refused when the body is
 * not JSON, not an array, empty or longer than 50; otherwise each event is checked on
 * its own: the valid ones are kept (unknown keys are ignored downstream, as zod strips
 * them) and the others are reported by index and field.
 */
export function parseUpload(text: string): ParsedUpload {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? `: ${error.message.slice(0, MAX_ISSUE_MESSAGE)}` : "";
    throw new AppError(Code.MALFORMED_JSON, `Malformed JSON in request body${detail}`, { status: 400 });
  }
  if (!Array.isArray(body)) {
    throw new AppError(Code.VALIDATION_FAILED, "The body must be a JSON array of events", {
      status: 400,
      data: [{ field: "body", rule: "invalid_type", message: "expected an array" }],
    });
  }
  if (body.length === 0 || body.length > TRACK_BATCH_MAX) {
    throw new AppError(
      Code.VALIDATION_FAILED,
      `An upload carries 1 to ${TRACK_BATCH_MAX} events; this one has ${body.length}`,
      {
        status: 400,
        data: [
          {
            field: "body",
            rule: body.length === 0 ? "too_small" : "too_big",
            message: `${body.length} events`,
          },
        ],
      },
    );
  }
  // every event valid (the usual upload): checked and split in one pass
  const split = scanUpload(body);
  if (split !== undefined) {
    return { received: body.length, records: body as TrackingRecord[], rejected: [], split };
  }
  const records: TrackingRecord[] = [];
  const rejected: TrackingRejection[] = [];
  body.forEach((item: unknown, index) => {
    if (isTrackingRecord(item)) {
      records.push(item);
      return;
    }
    // only refused events pay for zod: it names the failing fields (and has the last word)
    const result = trackingRecordSchema.safeParse(item);
    if (result.success) {
      records.push(result.data);
      return;
    }
    // NOTE: the answer stays bounded whatever the upload holds: 50 empty objects (151
    // bytes) listed every missing field of every event, a 259 KB answer.
    const detailed = rejected.length < DETAILED_REJECTIONS;
    rejected.push({
      index,
      issues: detailed
        ? result.error.issues.slice(0, ISSUES_PER_REJECTION).map((issue) => ({
            field: (issue.path.map(String).join(".") || "event").slice(0, MAX_ISSUE_MESSAGE),
            rule: issue.code,
            message: issue.message.slice(0, MAX_ISSUE_MESSAGE),
          }))
        : [],
    });
  });
  return { received: body.length, records, rejected };
}
