/**
 * `npm run test:loaded`: the whole `npm test` while two busy loops hold both cores, as on a
 * CI machine busy with other work. A test that passes quietly and fails here depends on
 * the machine's speed: it waits a fixed time for something instead of for the thing.
 *
 * `TEST_LOAD_LOOPS` sets how many loops (default: one per core). Each loop stops by itself
 * after two hours even if this process dies without killing it.
 */
import { spawn } from "node:child_process";
import os from "node:os";
import { repoRoot } from "./web-build.ts";

const loops = Number(process.env.TEST_LOAD_LOOPS ?? os.availableParallelism());
const busy =
  "const end = Date.now() + 2 * 3600_000; let x = 0; while (Date.now() < end) x = (x * 31 + 7) % 1e9;";
const burners = Array.from({ length: loops }, () =>
  spawn(process.execPath, ["-e", busy], { stdio: "ignore" }),
);
const stopBurners = () => {
  for (const burner of burners) burner.kill("SIGKILL");
};
process.stdout.write(`[test:loaded] ${loops} busy loops on ${os.availableParallelism()} cores\n`);

const test = spawn(process.execPath, ["scripts/test-all.ts"], { cwd: repoRoot, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    test.kill(signal);
    stopBurners();
  });
}
const code = await new Promise<number>((resolve) => test.once("exit", (c) => resolve(c ?? 1)));
stopBurners();
process.exit(code);
