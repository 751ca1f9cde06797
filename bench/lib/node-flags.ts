import fs from "node:fs";
import path from "node:path";

/**
 * The Node flags the production start script (apps/server/package.json `start`) gives
 * the server, e.g. `["--max-semi-space-size=32"]`: the benchmarks start their servers
 * with them, so they measure the runtime configuration production runs.
 */
export function productionNodeFlags(): string[] {
  const pkg = JSON.parse(
    fs.readFileSync(path.resolve(import.meta.dirname, "../../apps/server/package.json"), "utf8"),
  ) as { scripts?: { start?: string } };
  const words = (pkg.scripts?.start ?? "").split(/\s+/);
  const node = words.indexOf("node");
  const flags: string[] = [];
  for (let i = node + 1; node >= 0 && i < words.length && words[i]?.startsWith("--"); i++)
    flags.push(words[i] ?? "");
  return flags;
}
