import { z } from "zod";
import { parseEnv } from "../../platform/config.ts";

const flag = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((value) =>
      value === undefined || value === "" ? fallback : value === "true" || value === "1",
    );

const schema = z.object({
  /** `eventLogUploadSwitch` handed to the SDK: false stops every browser from recording. */
  TRACKING_UPLOAD_SWITCH: flag(true),
  /** Days of events kept; older days are dropped by the retention job. */
  TRACKING_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(180),
  /** Largest upload accepted (bytes). 50 events of the SDK weigh about 60 KB. */
  TRACKING_BODY_LIMIT: z.coerce.number().int().positive().default(1_048_576),
  /**
   * SQLite `synchronous` of the tracking file. FULL: an acknowledged upload survives a
   * power cut (one fsync per group commit). NORMAL: it survives a process crash only.
   */
  TRACKING_SQLITE_SYNC: z.enum(["full", "normal"]).default("full"),
  /** Daily partitions created ahead on PostgreSQL. */
  TRACKING_PARTITION_DAYS_AHEAD: z.coerce.number().int().min(1).max(60).default(7),
});

export interface TrackingConfig {
  uploadSwitch: boolean;
  retentionDays: number;
  bodyLimit: number;
  sqliteSync: "full" | "normal";
  partitionDaysAhead: number;
}

/** Parsed once at start; a bad value names the variable. */
export function loadTrackingConfig(env: NodeJS.ProcessEnv = process.env): TrackingConfig {
  const e = parseEnv(schema, env);
  return {
    uploadSwitch: e.TRACKING_UPLOAD_SWITCH,
    retentionDays: e.TRACKING_RETENTION_DAYS,
    bodyLimit: e.TRACKING_BODY_LIMIT,
    sqliteSync: e.TRACKING_SQLITE_SYNC,
    partitionDaysAhead: e.TRACKING_PARTITION_DAYS_AHEAD,
  };
}
