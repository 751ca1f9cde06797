/**
 * Where a server's CPU went, by phase of the order path: reads a `.cpuprofile` (the
 * server's, from `BENCH_CPU_PROF=<dir> npm run bench:orders`; the largest file is the
 * main thread) and puts each sample of its last SECONDS on the innermost frame on its
 * stack that names a phase:
 *
 * - signature: the device signature check (gateway-sign verify, device-key, signPayload);
 * - session: the session and user lookup (accounts guard, service, secrets, auth cache);
 * - pushes: user events after a commit (paper events, user stream, WebSockets);
 * - validation: body parsing (JSON) and the zod schemas;
 * - commit: the group commit and its SQL (platform/db, ledger writer and store, paper repo);
 * - engine: the in-memory spot engine, ledger and market (modules/paper, packages/domain);
 * - answer: serialising the envelope and the onSend hooks (compression, request-time);
 * - edge: everything else of ours at the HTTP edge (canonical path, host and origin
 *   checks, security headers, request id, cookies, routing, the gateway's hooks);
 * - http: Node's HTTP parser and socket writes with none of the above on the stack;
 * - gc, V8 (`(program)`), other.
 *
 * The profiler samples wall time: on a loaded machine a phase's share is what counts,
 * multiplied by the bench's `server_cpu_ms_per_order` (ORDERS gives the per-order column).
 *
 * Run: `node bench/profile-phases.ts <file.cpuprofile> [SECONDS=10] [ORDERS]`
 */
import fs from "node:fs";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

const [file, seconds = "10", orders] = process.argv.slice(2);
if (file === undefined)
  throw new Error("usage: node bench/profile-phases.ts <file.cpuprofile> [seconds] [orders]");
const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;

export const PHASES: readonly (readonly [string, RegExp])[] = [
  ["signature", /gateway-sign\/(verify|device-key|keys)\.ts|contracts\/src\/sign\.ts/],
  [
    "session",
    /accounts\/(guard\.ts:\d+$|service\.ts|secrets\.ts|auth-cache\.ts|repo\.ts)|sessionLookup|sessionKey|requireUser/,
  ],
  ["pushes", /paper\/(events|user-stream)\.ts|modules\/bot-api\/ws|publishCommit|websocket/],
  ["validation", /zod-compiler|node_modules\/zod|secure-json-parse|content-type-parser|paper\/routes\.ts/],
  [
    "commit",
    /platform\/db\/|modules\/ledger\/(store|repo|writer|group-commit|journal)|paper\/repo\.ts|modules\/writer\//,
  ],
  ["engine", /modules\/paper\/|packages\/domain\/|modules\/ledger\/|modules\/market\//],
  ["answer", /reply\.js|compress|fast-json-stringify|serialize/],
  ["edge", /platform\/http\/|accounts\/guard\.ts|gateway-sign\/routes\.ts|find-my-way|pino|logger-factory/],
  ["http", /node:_http|node:net|node:internal\/streams|node:stream/],
];

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const times: number[] = [];
let t = profile.startTime;
for (const d of profile.timeDeltas) {
  t += d;
  times.push(t);
}
const from = (times.at(-1) ?? 0) - Number(seconds) * 1e6;
const label = (n: Node) => `${n.callFrame.functionName} ${n.callFrame.url}:${n.callFrame.lineNumber + 1}`;
const phaseOf = (leaf: Node): string => {
  const fn = leaf.callFrame.functionName;
  if (fn === "(garbage collector)") return "gc";
  if (fn === "(program)") return "V8 (outside JS)";
  for (let n: Node | undefined = leaf; n !== undefined; ) {
    const text = label(n);
    for (const [phase, re] of PHASES) if (re.test(text)) return phase;
    const up = parent.get(n.id);
    n = up === undefined ? undefined : byId.get(up);
  }
  return "other";
};

const spent = new Map<string, number>();
let busy = 0;
profile.samples.forEach((id, i) => {
  const at = times[i] ?? 0;
  const leaf = byId.get(id);
  if (at < from || leaf === undefined || leaf.callFrame.functionName === "(idle)") return;
  const d = (times[i + 1] ?? at) - at;
  busy += d;
  const phase = phaseOf(leaf);
  spent.set(phase, (spent.get(phase) ?? 0) + d);
});
const n = orders === undefined ? 0 : Number(orders);
console.log(`busy ${(busy / 1000).toFixed(0)} ms of the last ${seconds} s (wall-time samples)`);
const shares: Record<string, number> = {};
for (const [phase, us] of [...spent].sort((a, b) => b[1] - a[1])) {
  shares[phase] = Math.round((1000 * us) / busy) / 10;
  console.log(
    `${(us / 1000).toFixed(0).padStart(6)} ms ${((100 * us) / busy).toFixed(1).padStart(5)} %${n > 0 ? `  ${(us / n).toFixed(1)} us/order` : ""}  ${phase}`,
  );
}
console.log(JSON.stringify(shares));
