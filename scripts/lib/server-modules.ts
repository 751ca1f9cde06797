/** The server's modules as the repository-wide checks read them (architecture and tables). */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../web-build.ts";

export const modulesDir = path.join(repoRoot, "apps/server/src/modules");

/** Every module: a folder of `apps/server/src/modules`. */
export const serverModules: readonly string[] = readdirSync(modulesDir).filter((name) =>
  statSync(path.join(modulesDir, name)).isDirectory(),
);

/** The non-test source files below `dir` (a module's folder). */
export function moduleSources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...moduleSources(full));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(full);
  }
  return out;
}
