/**
 * `npm run typecheck`: every TypeScript project of the repo, strict. The web app's route
 * types are generated first (React Router typegen), since `.react-router/` is not kept
 * in git.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name: string) => path.join(root, "node_modules/.bin", name);

const projects = [
  "packages/contracts",
  "packages/domain",
  "packages/client",
  "packages/sanitize",
  "packages/tracker",
  "packages/ssr-context",
  "packages/tracker/tsconfig.node.json",
  "apps/server",
  "apps/web",
  "bench",
  "scripts",
];

function run(command: string, args: string[], cwd = root): boolean {
  const result = spawnSync(command, args, { cwd, stdio: "inherit" });
  return result.status === 0;
}

let ok = run(bin("react-router"), ["typegen"], path.join(root, "apps/web"));
for (const project of projects) {
  process.stdout.write(`tsc -p ${project}\n`);
  ok = run(bin("tsc"), ["-p", project]) && ok;
}
process.exit(ok ? 0 : 1);
