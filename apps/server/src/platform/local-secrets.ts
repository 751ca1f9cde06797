import crypto from "node:crypto";
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * A production run that the environment gives no secrets (the `npm ci && npm start` demo,
 * `npm run cluster`) keeps generated ones under DATA_DIR, readable by this user only,
 * instead of new random ones per process, so what is sealed under them survives a
 * restart. The files live beside the data they protect and never in git (data/ is
 * ignored). A real deployment sets the variables and this does nothing
 * (docs/operations.md).
 *
 * - ACCOUNTS_SECRET: on SQLite, `accounts-secret` (an existing file is read on
 *   PostgreSQL too: bindings sealed under it stay readable). On PostgreSQL without one,
 *   the instances share one generated in the database instead (platform/shared-secrets.ts).
 * - SECRETS_KEY: `secrets-key`; it seals what instances share through the database, so
 *   instances sharing this DATA_DIR (one machine) agree on it.
 */
export function ensureLocalSecrets(
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
  warn: (msg: string) => void = console.warn,
): void {
  if (env.NODE_ENV !== "production") return;
  if (env.ACCOUNTS_SECRET === undefined) {
    const file = path.join(dataDir, "accounts-secret");
    const secret = (env.DATABASE_URL ?? "") === "" ? readOrCreate(file) : readSecret(file);
    if (secret?.created) {
      warn(`ACCOUNTS_SECRET is not set: generated one in ${file} (set ACCOUNTS_SECRET in real deployments)`);
    }
    if (secret !== undefined) env.ACCOUNTS_SECRET = secret.value;
  }
  if ((env.SECRETS_KEY ?? "") === "") {
    const file = path.join(dataDir, "secrets-key");
    const key = readOrCreate(file);
    if (key.created) {
      warn(`SECRETS_KEY is not set: generated one in ${file} (set SECRETS_KEY in real deployments)`);
    }
    env.SECRETS_KEY = key.value;
  }
}

/**
 * The secrets a production server generated under `dataDir`, for a tool run beside it
 * (`npm run admin:create`) whatever NODE_ENV its shell has: read when present, never made.
 */
export function readLocalSecrets(dataDir: string, env: NodeJS.ProcessEnv = process.env): void {
  for (const [name, file] of [
    ["ACCOUNTS_SECRET", "accounts-secret"],
    ["SECRETS_KEY", "secrets-key"],
  ] as const) {
    if ((env[name] ?? "") !== "") continue;
    const secret = readSecret(path.join(dataDir, file));
    if (secret !== undefined) env[name] = secret.value;
  }
}

function readSecret(file: string): { value: string; created: boolean } | undefined {
  try {
    const value = readFileSync(file, "utf8").trim();
    return value === "" ? undefined : { value, created: false };
  } catch {
    return undefined;
  }
}

/**
 * The secret in `file`, or a new one written there. Written whole under another name,
 * then linked into place (which fails if the name exists): instances starting together
 * never read a half-written file, and all of them end up with the one that won.
 */
function readOrCreate(file: string): { value: string; created: boolean } {
  const existing = readSecret(file);
  if (existing !== undefined) return existing;
  mkdirSync(path.dirname(file), { recursive: true });
  const value = crypto.randomBytes(32).toString("base64");
  const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}`;
  writeFileSync(temp, `${value}\n`, { mode: 0o600, flag: "wx" });
  try {
    linkSync(temp, file);
    return { value, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const winner = readSecret(file);
    if (winner === undefined) throw error;
    return winner;
  } finally {
    rmSync(temp, { force: true });
  }
}
