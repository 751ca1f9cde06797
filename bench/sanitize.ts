/**
 * bench:sanitize — what the worst rich text the server accepts costs to sanitise.
 *
 * Stored HTML is sanitised once, on write (pages serve it as stored), and only after
 * `checkHtmlBounds` accepted it: at most HTML_LIMITS.maxLength characters, maxDepth deep,
 * maxElements elements. Each case below sits at those limits in a different way (deepest
 * nesting padded to the full length, most elements, most links through the URL policy,
 * most styles through the style check, misnested formatting the parser clones); each is
 * sanitised SANITIZE_RUNS times after a warm-up and the median wall and CPU times are kept
 * (the load average is printed too: on a shared machine wall time grows with it). The
 * refused 3,000-level input of issue 15 is timed through the bounds check alone (what
 * refusing it costs). The last line printed is one JSON object; `worstAcceptedMs` is the figure.
 */
import os from "node:os";
import { sanitizeHtml } from "@meridian/sanitize";
import { checkHtmlBounds, HTML_LIMITS } from "@meridian/sanitize/bounds";

const RUNS = Number(process.env.SANITIZE_RUNS ?? 9);
const { maxLength, maxDepth, maxElements } = HTML_LIMITS;

/** `unit` repeated as often as fits in `room` characters and `elements` elements. */
function fill(unit: string, perUnit: number, room: number, elements: number): string {
  const n = Math.max(0, Math.min(Math.floor(room / unit.length), Math.floor(elements / perUnit)));
  return unit.repeat(n);
}

function deepPadded(): string {
  const open = "<div>".repeat(maxDepth - 2);
  const close = "</div>".repeat(maxDepth - 2);
  const unit = "<p>Airdrop <b>guide</b> step</p>";
  return `${open}${fill(unit, 2, maxLength - open.length - close.length, maxElements - maxDepth)}${close}`;
}

function misnested(): string {
  // Grows the misnested run until the bounds refuse it, then keeps the last accepted one.
  let best = "";
  for (let k = 8; k < 4096; k = Math.ceil(k * 1.25)) {
    const html = Array.from({ length: k }, (_, i) => `<p><b class=c${i}></p></x>`).join("");
    if (checkHtmlBounds(html) !== undefined) break;
    best = html;
  }
  return best;
}

const cases: Record<string, string> = {
  "deepest nesting, full length": deepPadded(),
  "most elements": fill("<b>x</b>", 1, maxLength, maxElements),
  "most links": fill('<a href="https://x.example/p?q=1" target="_blank">l</a>', 1, maxLength, maxElements),
  "most styles": fill('<span style="color:\\72 ed;/*x*/margin:0">s</span>', 1, maxLength, maxElements),
  "misnested formatting": misnested(),
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function time(fn: () => unknown): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

/** CPU time of `fn` (user + system): what a busy shared machine distorts least. */
function cpuTime(fn: () => unknown): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

sanitizeHtml("<p>warm-up</p>", { warn: false });
const results: { name: string; chars: number; boundsMs: number; sanitizeMs: number; cpuMs: number }[] = [];
for (const [name, html] of Object.entries(cases)) {
  const verdict = checkHtmlBounds(html);
  if (verdict !== undefined)
    throw new Error(`case "${name}" is refused (${verdict.message}): not an accepted input`);
  for (let i = 0; i < 2; i++) sanitizeHtml(html, { warn: false });
  const sanitizeMs = median(
    Array.from({ length: RUNS }, () => time(() => sanitizeHtml(html, { warn: false }))),
  );
  const cpuMs = median(
    Array.from({ length: RUNS }, () => cpuTime(() => sanitizeHtml(html, { warn: false }))),
  );
  const boundsMs = median(Array.from({ length: RUNS }, () => time(() => checkHtmlBounds(html))));
  results.push({ name, chars: html.length, boundsMs, sanitizeMs, cpuMs });
  console.log(
    `${name.padEnd(30)} ${String(html.length).padStart(6)} chars  bounds ${boundsMs.toFixed(1).padStart(6)} ms  sanitise ${sanitizeMs.toFixed(1).padStart(7)} ms (CPU ${cpuMs.toFixed(1)} ms)`,
  );
}

const refused = `${"<div>".repeat(3000)}x${"</div>".repeat(3000)}`;
const refusedCheckMs = median(Array.from({ length: RUNS }, () => time(() => checkHtmlBounds(refused))));
console.log(`refused: 3,000 nested (${refused.length} chars), bounds check ${refusedCheckMs.toFixed(1)} ms`);

const worst = results.reduce((a, b) => (b.sanitizeMs > a.sanitizeMs ? b : a));
console.log(
  JSON.stringify({
    bench: "sanitize",
    limits: HTML_LIMITS,
    runs: RUNS,
    worstAcceptedMs: Number(worst.sanitizeMs.toFixed(2)),
    worstCase: worst.name,
    worstAcceptedCpuMs: Number(Math.max(...results.map((r) => r.cpuMs)).toFixed(2)),
    loadAverage: Number((os.loadavg()[0] ?? 0).toFixed(1)),
    worstBoundsCheckMs: Number(Math.max(...results.map((r) => r.boundsMs)).toFixed(2)),
    refusedDeepCheckMs: Number(refusedCheckMs.toFixed(2)),
    cases: Object.fromEntries(results.map((r) => [r.name, Number(r.sanitizeMs.toFixed(2))])),
  }),
);
