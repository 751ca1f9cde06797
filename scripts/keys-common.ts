/**
 * Shared by `npm run keys:issuer` and `npm run keys:server`: argument reading and the
 * rule that key files live outside the repository with mode 0600.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** `--name value` or `--name=value`. */
export function argOf(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? "";
    if (a === `--${name}`) return argv[i + 1];
    if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3);
  }
  return undefined;
}

/** Stops with a message on stderr and exit code 2 (bad usage) or 1. */
export function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/** A path from the command line: relative to where `npm run` was typed (npm itself runs in the repo root). */
export function fromUserCwd(file: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
}

/** The absolute path for a new secret file, refused inside the repository (git would see it). */
export function secretPathOutsideRepo(file: string): string {
  const abs = fromUserCwd(file);
  const dir = fs.existsSync(path.dirname(abs)) ? fs.realpathSync(path.dirname(abs)) : undefined;
  if (dir === undefined) fail(`${path.dirname(abs)} does not exist`);
  const rel = path.relative(fs.realpathSync(repoRoot), path.join(dir, path.basename(abs)));
  if (!rel.startsWith("..") && !path.isAbsolute(rel))
    fail(`${abs} is inside the repository: keep private keys outside it (e.g. ~/meridian-keys/)`);
  return abs;
}

/** Writes a new file readable by its owner only; never overwrites one. */
export function writeSecret(file: string, text: string): void {
  try {
    fs.writeFileSync(file, text, { mode: 0o600, flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") fail(`${file} exists: not overwriting a key`);
    throw err;
  }
  fs.chmodSync(file, 0o600); // the umask cannot loosen it, but be explicit
}
