/**
 * bench:risk — the futures risk pass over 100,000 open positions (RISK_POSITIONS) across
 * the six perpetuals: seeded random sizes, leverage, entries and margin modes (half
 * cross over ~25,000 accounts, half isolated). Every update moves each mark by a seeded
 * random step, then runs a full pass (margin ratio of every position, liquidations
 * confirmed exactly). Liquidated positions are closed through the liquidation engine
 * and replaced by fresh ones outside the timed section, so the book stays at size.
 * The last line printed is one JSON object. RISK_PASSES sets the number of updates.
 */
import {
  initialMargin,
  liquidateCross,
  liquidateIsolated,
  maxLeverageFor,
  notionalAt,
  PERP_CONTRACTS,
  type PerpPosition,
  Prng,
  RiskBook,
} from "@meridian/domain";

const N = Number(process.env.RISK_POSITIONS ?? 100_000);
const PASSES = Number(process.env.RISK_PASSES ?? 300);
const WARMUP = 20;
const SEED = 20_260_101;
const START_TICKS = [970_000, 340_000, 19_000, 65_000, 23_000, 22_000];

const rng = new Prng(SEED);
const book = new RiskBook(N);
const marks = new Map<string, number>();
const ticks = START_TICKS.slice();
PERP_CONTRACTS.forEach((c, i) => {
  const t = ticks[i] ?? 1;
  book.setMarkAt(i, t);
  marks.set(c.symbol, t);
});

const accounts = Math.max(1, Math.floor(N / 4));
const wallets = new Map<number, bigint>();

function randomPosition(): PerpPosition {
  const c = PERP_CONTRACTS[rng.int(0, PERP_CONTRACTS.length - 1)];
  if (c === undefined) throw new Error("no contract");
  const mark = ticks[c.index] ?? 1;
  // Notional log-uniform between 20 and 500,000 USDT.
  const usdtNotional = 20 * 25_000 ** rng.next();
  const perLot = Number(c.minorPerTickLot) * mark;
  const lots = Math.max(1, Math.round((usdtNotional * 1e8) / perLot));
  const entry = Math.max(1, Math.round(mark * (0.98 + rng.next() * 0.04)));
  const side = rng.next() < 0.5 ? 1 : -1;
  const cost = notionalAt(c, lots, entry);
  const leverage = Math.max(
    1,
    Math.min([2, 3, 5, 10, 20, 25, 50, 75][rng.int(0, 7)] ?? 10, maxLeverageFor(c, cost)),
  );
  const isolated = rng.next() < 0.5;
  return {
    accountId: rng.int(1, accounts),
    symbol: c.symbol,
    positionSide: "BOTH",
    marginMode: isolated ? "isolated" : "cross",
    leverage,
    lots: side * lots,
    cost,
    isolatedMargin: isolated ? initialMargin(cost, leverage) + initialMargin(cost, leverage * 2) : 0n,
  };
}

let nextId = 1;
function addPosition(): void {
  const p = randomPosition();
  book.setPosition(nextId++, p);
  if (p.marginMode === "cross") {
    // The wallet carries 1.2x-3x the position's initial margin.
    const extra = (initialMargin(p.cost, p.leverage) * BigInt(120 + rng.int(0, 180))) / 100n;
    const w = (wallets.get(p.accountId) ?? 0n) + extra;
    wallets.set(p.accountId, w);
    book.setWallet(p.accountId, w);
  }
}

const t0 = performance.now();
for (let i = 0; i < N; i++) addPosition();
const buildMs = performance.now() - t0;

function moveMarks(): void {
  for (let i = 0; i < ticks.length; i++) {
    const t = ticks[i] ?? 1;
    // ~0.4 % standard deviation per update, mean-reverting to the start so the run stays in range.
    const pull = ((START_TICKS[i] ?? t) - t) * 0.02;
    const z = (rng.next() + rng.next() + rng.next() - 1.5) * 2;
    const next = Math.max(1, Math.round(t + pull + t * 0.004 * z));
    ticks[i] = next;
    book.setMarkAt(i, next);
    const c = PERP_CONTRACTS[i];
    if (c !== undefined) marks.set(c.symbol, next);
  }
}

const times: number[] = [];
let liquidatedPositions = 0;
let crossLiquidations = 0;
let exactChecks = 0;
let insurance = 0n;
for (let pass = 0; pass < WARMUP + PASSES; pass++) {
  moveMarks();
  const start = performance.now();
  const r = book.pass();
  const ms = performance.now() - start;
  if (pass >= WARMUP) {
    times.push(ms);
    exactChecks += r.exactChecks;
  }
  // Close what the pass found through the liquidation engine, then refill the book.
  for (const id of r.isolated) {
    const p = book.position(id);
    if (p === undefined) continue;
    insurance += liquidateIsolated(p, marks.get(p.symbol) ?? 1).insurance;
    book.removePosition(id);
    liquidatedPositions++;
  }
  for (const a of r.crossAccounts) {
    const out = liquidateCross(a, book.walletOf(a), book.positionsOf(a), marks);
    insurance += out.insurance;
    crossLiquidations++;
    liquidatedPositions += out.closed.length;
    for (const id of book.positionIdsOf(a))
      if (book.position(id)?.marginMode === "cross") book.removePosition(id);
    wallets.set(a, 0n);
    book.setWallet(a, 0n);
  }
  while (book.size < N) addPosition();
}

times.sort((a, b) => a - b);
const q = (f: number) => times[Math.min(times.length - 1, Math.floor(f * times.length))] ?? 0;
const median = q(0.5);
const p99 = q(0.99);
const round = (x: number) => Math.round(x * 1000) / 1000;
console.log(
  `risk pass: ${N.toLocaleString("en")} positions over ${accounts.toLocaleString("en")} accounts, ${PERP_CONTRACTS.length} perpetuals`,
);
console.log(`  book built in ${buildMs.toFixed(0)} ms`);
console.log(
  `  ${PASSES} passes (after ${WARMUP} warm-up): median ${median.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, min ${(times[0] ?? 0).toFixed(2)} ms`,
);
console.log(
  `  liquidated ${liquidatedPositions.toLocaleString("en")} positions (${crossLiquidations} cross accounts), ${exactChecks} exact re-checks, insurance net ${(Number(insurance) / 1e8).toFixed(2)} USDT`,
);
console.log(
  `  target: < 50 ms per pass -> ${median < 50 ? "met" : "MISSED"} (2 shared cores: figures are noisy)`,
);
console.log(JSON.stringify({ positions: N, ms_per_pass: round(median), p99_ms: round(p99), passes: PASSES }));
