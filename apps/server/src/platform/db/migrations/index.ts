import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Every `YYYYMMDDHHMM_name.ts` beside this file is a migration, applied in name order
 * on start (see ../migrate.ts). To add one, add a file: nothing else to register.
 *
 * ```ts
 * // 202611221200_ratings.ts
 * import { ddl } from "../ddl.ts";
 * import type { Dialect } from "../types.ts";
 * export function up(dialect: Dialect): string { ... }
 * ```
 */
export const MIGRATIONS_DIR = path.dirname(fileURLToPath(import.meta.url));
