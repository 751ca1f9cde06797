import path from "node:path";
import { z } from "zod";
import { ConfigError, parseEnv } from "../../platform/config.ts";
import type { S3Settings } from "./storage.ts";

/**
 * Image storage settings from the environment (docs/operations.md "Image storage").
 * MEDIA_S3_BUCKET switches to the bucket; everything else has a default.
 */
const envSchema = z.object({
  MEDIA_DIR: z.string().min(1).optional(),
  MEDIA_S3_BUCKET: z.string().min(3).max(63).optional(),
  MEDIA_S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  MEDIA_S3_REGION: z.string().min(1).default("us-east-1"),
  MEDIA_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  MEDIA_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  MEDIA_S3_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9._-]+\/)*$/, "empty or path segments ending in /")
    .default("media/"),
  MEDIA_S3_PATH_STYLE: z.enum(["0", "1", "true", "false"]).optional(),
});

export type MediaStorageConfig = { kind: "disk"; dir: string } | ({ kind: "s3" } & S3Settings);

/** Throws naming the bad variable (never its value). */
export function mediaConfigFromEnv(env: NodeJS.ProcessEnv, dataDir: string): MediaStorageConfig {
  const e = parseEnv(envSchema, env);
  if (e.MEDIA_S3_BUCKET === undefined) {
    return {
      kind: "disk",
      dir: e.MEDIA_DIR === undefined ? path.join(dataDir, "media") : path.resolve(e.MEDIA_DIR),
    };
  }
  if (e.MEDIA_S3_ACCESS_KEY_ID === undefined || e.MEDIA_S3_SECRET_ACCESS_KEY === undefined)
    throw new ConfigError(
      "Invalid environment: MEDIA_S3_BUCKET needs MEDIA_S3_ACCESS_KEY_ID and MEDIA_S3_SECRET_ACCESS_KEY",
    );
  return {
    kind: "s3",
    bucket: e.MEDIA_S3_BUCKET,
    endpoint: e.MEDIA_S3_ENDPOINT ?? `https://s3.${e.MEDIA_S3_REGION}.amazonaws.com`,
    region: e.MEDIA_S3_REGION,
    accessKeyId: e.MEDIA_S3_ACCESS_KEY_ID,
    secretAccessKey: e.MEDIA_S3_SECRET_ACCESS_KEY,
    prefix: e.MEDIA_S3_PREFIX,
    // A custom endpoint is usually a self-hosted server: path-style unless told otherwise.
    pathStyle:
      e.MEDIA_S3_PATH_STYLE === undefined
        ? e.MEDIA_S3_ENDPOINT !== undefined
        : e.MEDIA_S3_PATH_STYLE === "1" || e.MEDIA_S3_PATH_STYLE === "true",
  };
}
