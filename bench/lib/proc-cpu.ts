import { readFileSync } from "node:fs";

/** CPU seconds (user + system, every thread) the process `pid` (or `pid/task/tid`: one thread) used so far (Linux). */
export function cpuSeconds(pid: number | string): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** `cpuSeconds`, or undefined when the process is not on this machine or already gone. */
export function cpuSecondsIfAny(pid: number | string): number | undefined {
  try {
    return cpuSeconds(pid);
  } catch {
    return undefined;
  }
}
