/**
 * bench:risk — the futures risk pass over 100,000 open positions (RISK_POSITIONS) across
 * the six perpetuals: seeded random sizes, leverage, entries and margin modes (half
 * cross over ~25,000 accounts, half isolated). Every update moves each mark by a seeded
 * random step, then runs a full pass (margin ratio of every position, liquidations
 * confirmed exactly). Liquidated positions are closed through the liquidation engine
 * and replaced by fresh ones outside the timed section, so the book stays at size.
 * Beside them, 10,000 coin-margined positions (RISK_COIN_POSITIONS) on the seven inverse
 * perpetuals over ~2,500 accounts' coin wallets, checked as the server checks them: the
 * exact rule (`decideLiquidations`) per coin wallet, on each update of their own marks.
 * The last line printed is one JSON object. RISK_PASSES sets the number of updates.
 */
import {
  applyFill,
  COIN_PERP_CONTRACTS,
  decideLiquidations,
  type FuturesAccount,
  flatPosition,
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
const COIN_N = Number(process.env.RISK_COIN_POSITIONS ?? 10_000);
/** BTCUSD, ETHUSD, SOLUSD, XRPUSD, DOGEUSD, ADAUSD, LTCUSD in their ticks. */
const COIN_START_TICKS = [970_000, 340_000, 19_000, 23_000, 22_000, 7_500, 8_000];

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

/** One seeded step of a mark: ~0.4 % standard deviation, mean-reverting to the start so the run stays in range. */
function step(t: number, start: number): number {
  const pull = (start - t) * 0.02;
  const z = (rng.next() + rng.next() + rng.next() - 1.5) * 2;
  return Math.max(1, Math.round(t + pull + t * 0.004 * z));
}

function moveMarks(): void {
  for (let i = 0; i < ticks.length; i++) {
    const t = ticks[i] ?? 1;
    const next = step(t, START_TICKS[i] ?? t);
    ticks[i] = next;
    book.setMarkAt(i, next);
    const c = PERP_CONTRACTS[i];
    if (c !== undefined) marks.set(c.symbol, next);
  }
}

// ---- coin-margined positions: the exact per-wallet check the server runs for them ----

const coinTicks = COIN_START_TICKS.slice();
const coinMarks = new Map<string, number>();
for (const c of COIN_PERP_CONTRACTS) coinMarks.set(c.symbol, coinTicks[c.index] ?? 1);
const coinAccounts = Math.max(1, Math.floor(COIN_N / 4));
/** `account:coin` -> that coin wallet and its positions. */
const coinBooks = new Map<
  string,
  { accountId: number; asset: string; wallet: bigint; positions: PerpPosition[] }
>();
let coinSize = 0;

function addCoinPosition(): void {
  const c = COIN_PERP_CONTRACTS[rng.int(0, COIN_PERP_CONTRACTS.length - 1)];
  if (c === undefined) throw new Error("no contract");
  const mark = coinTicks[c.index] ?? 1;
  // Value log-uniform between 20 and 500,000 USD, in whole contracts.
  const contracts = Math.max(1, Math.round((20 * 25_000 ** rng.next()) / Number(c.contractValue)));
  const entry = Math.max(1, Math.round(mark * (0.98 + rng.next() * 0.04)));
  const value = notionalAt(c, contracts, entry);
  const leverage = Math.max(
    1,
    Math.min([2, 3, 5, 10, 20, 25, 50, 75][rng.int(0, 7)] ?? 10, maxLeverageFor(c, value)),
  );
  const isolated = rng.next() < 0.5;
  const accountId = rng.int(1, coinAccounts);
  const start = flatPosition({
    accountId,
    symbol: c.symbol,
    marginMode: isolated ? "isolated" : "cross",
    leverage,
  });
  const r = applyFill(c, start, {
    side: rng.next() < 0.5 ? "buy" : "sell",
    lots: contracts,
    priceTicks: entry,
    feePpm: 0,
  });
  if (!r.ok) return;
  const p = r.value.position;
  const key = `${accountId}:${c.marginAsset}`;
  let b = coinBooks.get(key);
  if (b === undefined) {
    b = { accountId, asset: c.marginAsset, wallet: 0n, positions: [] };
    coinBooks.set(key, b);
  }
  if (isolated)
    b.positions.push({ ...p, isolatedMargin: p.isolatedMargin + initialMargin(value, leverage * 2) });
  else {
    b.positions.push(p);
    b.wallet += (initialMargin(value, leverage) * BigInt(120 + rng.int(0, 180))) / 100n;
  }
  coinSize++;
}

const tc = performance.now();
for (let i = 0; i < COIN_N; i++) addCoinPosition();
const coinBuildMs = performance.now() - tc;

function moveCoinMarks(): void {
  for (let i = 0; i < coinTicks.length; i++) {
    const t = coinTicks[i] ?? 1;
    const next = step(t, COIN_START_TICKS[i] ?? t);
    coinTicks[i] = next;
    const c = COIN_PERP_CONTRACTS[i];
    if (c !== undefined) coinMarks.set(c.symbol, next);
  }
}

const coinTimes: number[] = [];
let coinLiquidated = 0;

/** One coin-M pass: decide exactly (timed), then close what it found into each coin's fund and refill. */
function coinPass(timed: boolean): void {
  const list: FuturesAccount[] = [...coinBooks.values()].map((b) => ({
    accountId: b.accountId,
    asset: b.asset,
    wallet: b.wallet,
    positions: b.positions,
  }));
  const start = performance.now();
  const decisions = decideLiquidations(list, coinMarks);
  const ms = performance.now() - start;
  if (timed) coinTimes.push(ms);
  for (const d of decisions) {
    const b = coinBooks.get(`${d.accountId}:${d.asset}`);
    if (b === undefined) continue;
    for (const p of d.isolated) liquidateIsolated(p, coinMarks.get(p.symbol) ?? 1);
    let gone = new Set<PerpPosition>(d.isolated);
    if (d.cross) {
      const out = liquidateCross(b.accountId, b.wallet, b.positions, coinMarks, b.asset);
      gone = new Set([...gone, ...out.closed.map((x) => x.position)]);
      b.wallet = 0n;
    }
    const before = b.positions.length;
    b.positions = b.positions.filter((p) => !gone.has(p));
    coinLiquidated += before - b.positions.length;
    coinSize -= before - b.positions.length;
  }
  while (coinSize < COIN_N) addCoinPosition();
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
  if (COIN_N > 0) {
    moveCoinMarks();
    coinPass(pass >= WARMUP);
  }
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
coinTimes.sort((a, b) => a - b);
const cq = (f: number) => coinTimes[Math.min(coinTimes.length - 1, Math.floor(f * coinTimes.length))] ?? 0;
const coinMedian = cq(0.5);
console.log(
  `coin-margined: ${COIN_N.toLocaleString("en")} positions over ${coinBooks.size.toLocaleString("en")} coin wallets, ${COIN_PERP_CONTRACTS.length} perpetuals (built in ${coinBuildMs.toFixed(0)} ms)`,
);
console.log(
  `  exact pass: median ${coinMedian.toFixed(2)} ms, p99 ${cq(0.99).toFixed(2)} ms; liquidated ${coinLiquidated.toLocaleString("en")} positions`,
);
console.log(
  `  target: < 50 ms per pass, both books -> ${median + coinMedian < 50 ? "met" : "MISSED"} (2 shared cores: figures are noisy)`,
);
console.log(
  JSON.stringify({
    positions: N,
    ms_per_pass: round(median),
    p99_ms: round(p99),
    coin_positions: COIN_N,
    coin_ms_per_pass: round(coinMedian),
    coin_p99_ms: round(cq(0.99)),
    passes: PASSES,
  }),
);
