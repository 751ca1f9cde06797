import crypto from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * A production run without ACCOUNTS_SECRET (the `npm ci && npm start` demo) keeps one
 * generated secret under DATA_DIR, readable by this user only, instead of a new random
 * one per process: authenticator bindings sealed under it then survive a restart. The
 * file lives beside the database it protects and never in git (data/ is ignored). A
 * real deployment sets ACCOUNTS_SECRET and this does nothing.
 */
export function ensureAccountsSecret(
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
  warn: (msg: string) => void = console.warn,
): void {
  if (env.NODE_ENV !== "production" || env.ACCOUNTS_SECRET !== undefined) return;
  const file = path.join(dataDir, "accounts-secret");
  let secret: string | undefined;
  try {
    secret = readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    secret = crypto.randomBytes(32).toString("base64");
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
    warn(`ACCOUNTS_SECRET is not set: generated one in ${file} (set ACCOUNTS_SECRET in real deployments)`);
  }
  env.ACCOUNTS_SECRET = secret;
}
