import { PERP_CONTRACTS, type PerpContract } from "./contracts.ts";
import { crossSummary, isolatedStatus, type PerpPosition } from "./position.ts";

export interface RiskPassResult {
  /** Ids of isolated positions whose margin balance <= maintenance margin (confirmed exactly). */
  readonly isolated: number[];
  /** Accounts whose cross margin balance <= cross maintenance margin (confirmed exactly). */
  readonly crossAccounts: number[];
  /** Positions and accounts within float error of the line, re-checked with bigint arithmetic. */
  readonly exactChecks: number;
}

/** Float screen tolerance: far above float64 error (~1e-15 relative), far below any real margin. */
const REL_TOL = 1e-9;

/**
 * The risk pass over every open position, laid out for speed: struct-of-arrays of typed
 * arrays indexed by a dense slot, with integer values (lots, USDT minor units) held in
 * float64. A pass screens every position in float64 (exact up to 2^53, correctly rounded
 * beyond). A gap between margin balance and maintenance larger than a relative 1e-9 (far
 * above float error) decides on its own; only positions and accounts inside that band are
 * re-checked exactly with bigint (`isolatedStatus`, `crossSummary`), so the result always
 * equals the exact rule.
 *
 * Per-account lists of positions are intrusive doubly linked lists through the slots, so
 * cross accounts are re-checked without scanning the book.
 */
export class RiskBook {
  private readonly contracts: readonly PerpContract[] = PERP_CONTRACTS;
  private cap = 0;
  private n = 0;
  private ids = new Float64Array(0);
  private sym = new Uint8Array(0);
  private acct = new Int32Array(0);
  private side = new Int8Array(0);
  private iso = new Uint8Array(0);
  private lots = new Float64Array(0);
  private cost = new Float64Array(0);
  private margin = new Float64Array(0);
  private ratio = new Float64Array(0);
  private prev = new Int32Array(0);
  private next = new Int32Array(0);
  private recs: PerpPosition[] = [];
  private readonly slotOf = new Map<number, number>();

  private accCap = 0;
  private accN = 0;
  private readonly accIndex = new Map<number, number>();
  private accIds: number[] = [];
  private walletExact: bigint[] = [];
  private wallet = new Float64Array(0);
  private head = new Int32Array(0);
  private crossCount = new Int32Array(0);
  private accUpnl = new Float64Array(0);
  private accMm = new Float64Array(0);
  private accScale = new Float64Array(0);
  private accRatio = new Float64Array(0);

  private readonly mark: Float64Array;
  private readonly perLot: Float64Array;
  private readonly marks = new Map<string, number>();
  private readonly bStart: Int32Array;
  private readonly bFloor: Float64Array;
  private readonly bMmr: Float64Array;
  private readonly bCum: Float64Array;

  constructor(capacity = 1024) {
    const cs = this.contracts;
    this.mark = new Float64Array(cs.length);
    this.perLot = new Float64Array(cs.length);
    this.bStart = new Int32Array(cs.length + 1);
    const total = cs.reduce((s, c) => s + c.brackets.length, 0);
    this.bFloor = new Float64Array(total);
    this.bMmr = new Float64Array(total);
    this.bCum = new Float64Array(total);
    let j = 0;
    cs.forEach((c, i) => {
      this.bStart[i] = j;
      for (const b of c.brackets) {
        this.bFloor[j] = Number(b.floor);
        this.bMmr[j] = b.mmrPpm / 1e6;
        this.bCum[j] = Number(b.maintAmount);
        j++;
      }
    });
    this.bStart[cs.length] = j;
    this.grow(capacity);
    this.growAccounts(Math.max(16, capacity >> 2));
  }

  get size(): number {
    return this.n;
  }

  setMark(symbol: string, ticks: number): void {
    const c = this.contracts.find((x) => x.symbol === symbol);
    if (c === undefined) throw new RangeError(`unknown perpetual ${symbol}`);
    this.setMarkAt(c.index, ticks);
  }

  /** Sets a mark by contract index (the hot path of a price feed). */
  setMarkAt(index: number, ticks: number): void {
    const c = this.contracts[index];
    if (c === undefined) throw new RangeError(`no contract at ${index}`);
    if (!Number.isSafeInteger(ticks) || ticks <= 0)
      throw new RangeError("a mark is a positive whole number of ticks");
    this.mark[index] = ticks;
    this.perLot[index] = ticks * Number(c.minorPerTickLot);
    this.marks.set(c.symbol, ticks);
  }

  /** The cross wallet balance of an account (USDT minor units). */
  setWallet(accountId: number, balance: bigint): void {
    const a = this.account(accountId);
    this.walletExact[a] = balance;
    this.wallet[a] = Number(balance);
  }

  walletOf(accountId: number): bigint {
    const a = this.accIndex.get(accountId);
    return a === undefined ? 0n : (this.walletExact[a] ?? 0n);
  }

  position(id: number): PerpPosition | undefined {
    const s = this.slotOf.get(id);
    return s === undefined ? undefined : this.recs[s];
  }

  /** Every open position of an account. */
  positionsOf(accountId: number): PerpPosition[] {
    const a = this.accIndex.get(accountId);
    const out: PerpPosition[] = [];
    if (a === undefined) return out;
    for (let s = this.head[a] ?? -1; s >= 0; s = this.next[s] ?? -1) {
      const r = this.recs[s];
      if (r !== undefined) out.push(r);
    }
    return out;
  }

  /** Ids of every open position of an account (to close a cross account's positions after a liquidation). */
  positionIdsOf(accountId: number): number[] {
    const a = this.accIndex.get(accountId);
    const out: number[] = [];
    if (a === undefined) return out;
    for (let s = this.head[a] ?? -1; s >= 0; s = this.next[s] ?? -1) out.push(this.ids[s] ?? 0);
    return out;
  }

  /** Margin ratio of a position after the last pass (maintenance / margin balance; Infinity past zero balance). */
  marginRatio(id: number): number | undefined {
    const s = this.slotOf.get(id);
    return s === undefined ? undefined : this.ratio[s];
  }

  /** Inserts or replaces a position under a caller id; a flat position is removed. */
  setPosition(id: number, p: PerpPosition): void {
    if (p.lots === 0) {
      this.removePosition(id);
      return;
    }
    const c = this.contracts.find((x) => x.symbol === p.symbol);
    if (c === undefined) throw new RangeError(`unknown perpetual ${p.symbol}`);
    let s = this.slotOf.get(id);
    if (s !== undefined && this.recs[s]?.accountId !== p.accountId) {
      this.removePosition(id);
      s = undefined;
    }
    const a = this.account(p.accountId);
    if (s === undefined) {
      if (this.n === this.cap) this.grow(this.cap * 2);
      s = this.n++;
      this.slotOf.set(id, s);
      this.ids[s] = id;
      this.link(s, a);
    } else if (this.iso[s] === 0) {
      this.crossCount[a] = (this.crossCount[a] ?? 0) - 1;
    }
    this.recs[s] = p;
    this.sym[s] = c.index;
    this.acct[s] = a;
    this.side[s] = p.lots > 0 ? 1 : -1;
    this.iso[s] = p.marginMode === "isolated" ? 1 : 0;
    this.lots[s] = Math.abs(p.lots);
    this.cost[s] = Number(p.cost);
    this.margin[s] = Number(p.isolatedMargin);
    if (this.iso[s] === 0) this.crossCount[a] = (this.crossCount[a] ?? 0) + 1;
  }

  removePosition(id: number): void {
    const s = this.slotOf.get(id);
    if (s === undefined) return;
    const a = this.acct[s] ?? 0;
    if (this.iso[s] === 0) this.crossCount[a] = (this.crossCount[a] ?? 0) - 1;
    this.unlink(s, a);
    this.slotOf.delete(id);
    const last = --this.n;
    if (s !== last) this.move(last, s);
    this.recs.length = this.n;
  }

  /**
   * Recomputes every position's margin ratio at the current marks and returns what the
   * liquidation rule (margin balance <= maintenance margin) triggers.
   */
  pass(): RiskPassResult {
    const { n, sym, side, iso, lots, cost, margin, ratio, acct, bStart, bFloor, bMmr, bCum, perLot } = this;
    const accUpnl = this.accUpnl;
    const accMm = this.accMm;
    const accScale = this.accScale;
    accUpnl.fill(0, 0, this.accN);
    accMm.fill(0, 0, this.accN);
    accScale.fill(0, 0, this.accN);
    const isoCandidates: number[] = [];
    const isolated: number[] = [];
    const crossAccounts: number[] = [];
    for (let i = 0; i < n; i++) {
      const s = sym[i] as number;
      const pl = perLot[s] as number;
      const c = cost[i] as number;
      // A symbol without a mark yet is valued at entry, as `crossSummary` does; isolated ones wait for a mark.
      const notional = pl > 0 ? (lots[i] as number) * pl : c;
      const upnl = side[i] === 1 ? notional - c : c - notional;
      let b = bStart[s] as number;
      const end = (bStart[s + 1] as number) - 1;
      while (b < end && notional >= (bFloor[b + 1] as number)) b++;
      let mm = notional * (bMmr[b] as number) - (bCum[b] as number);
      if (mm < 0) mm = 0;
      if (iso[i] === 1 && pl > 0) {
        const mb = (margin[i] as number) + upnl;
        ratio[i] = mb > 0 ? mm / mb : Number.POSITIVE_INFINITY;
        const tol = REL_TOL * ((margin[i] as number) + notional + c) + 2;
        const gap = mb - mm;
        if (gap < -tol) isolated.push(this.ids[i] as number);
        else if (gap <= tol) isoCandidates.push(i);
      } else if (iso[i] === 0) {
        const a = acct[i] as number;
        accUpnl[a] = (accUpnl[a] as number) + upnl;
        accMm[a] = (accMm[a] as number) + mm;
        accScale[a] = (accScale[a] as number) + notional + c;
      }
    }
    let exactChecks = 0;
    const accRatio = this.accRatio;
    for (let a = 0; a < this.accN; a++) {
      if ((this.crossCount[a] as number) <= 0) continue;
      const w = this.wallet[a] as number;
      const mb = w + (accUpnl[a] as number);
      const mm = accMm[a] as number;
      accRatio[a] = mb > 0 ? mm / mb : Number.POSITIVE_INFINITY;
      const tol = REL_TOL * (Math.abs(w) + (accScale[a] as number)) + 2;
      const gap = mb - mm;
      if (gap < -tol) crossAccounts.push(this.accIds[a] as number);
      else if (gap <= tol) {
        exactChecks++;
        const id = this.accIds[a] as number;
        if (crossSummary(this.walletExact[a] ?? 0n, this.positionsOf(id), this.marks).breached)
          crossAccounts.push(id);
      }
    }
    for (let i = 0; i < n; i++) if (iso[i] === 0) ratio[i] = accRatio[acct[i] as number] as number;
    for (const i of isoCandidates) {
      exactChecks++;
      const rec = this.recs[i];
      const c = this.contracts[sym[i] as number];
      if (
        rec !== undefined &&
        c !== undefined &&
        isolatedStatus(c, rec, this.mark[c.index] as number).breached
      ) {
        isolated.push(this.ids[i] as number);
      }
    }
    return { isolated, crossAccounts, exactChecks };
  }

  private account(accountId: number): number {
    let a = this.accIndex.get(accountId);
    if (a === undefined) {
      if (this.accN === this.accCap) this.growAccounts(this.accCap * 2);
      a = this.accN++;
      this.accIndex.set(accountId, a);
      this.accIds[a] = accountId;
      this.walletExact[a] = 0n;
      this.head[a] = -1;
    }
    return a;
  }

  private link(s: number, a: number): void {
    const h = this.head[a] ?? -1;
    this.prev[s] = -1;
    this.next[s] = h;
    if (h >= 0) this.prev[h] = s;
    this.head[a] = s;
  }

  private unlink(s: number, a: number): void {
    const p = this.prev[s] ?? -1;
    const nx = this.next[s] ?? -1;
    if (p >= 0) this.next[p] = nx;
    else this.head[a] = nx;
    if (nx >= 0) this.prev[nx] = p;
  }

  /** Moves slot `from` into the free slot `to`, patching the account list and the id map. */
  private move(from: number, to: number): void {
    const a = this.acct[from] ?? 0;
    const p = this.prev[from] ?? -1;
    const nx = this.next[from] ?? -1;
    if (p >= 0) this.next[p] = to;
    else this.head[a] = to;
    if (nx >= 0) this.prev[nx] = to;
    this.prev[to] = p;
    this.next[to] = nx;
    this.ids[to] = this.ids[from] ?? 0;
    this.sym[to] = this.sym[from] ?? 0;
    this.acct[to] = a;
    this.side[to] = this.side[from] ?? 0;
    this.iso[to] = this.iso[from] ?? 0;
    this.lots[to] = this.lots[from] ?? 0;
    this.cost[to] = this.cost[from] ?? 0;
    this.margin[to] = this.margin[from] ?? 0;
    this.ratio[to] = this.ratio[from] ?? 0;
    const rec = this.recs[from];
    if (rec !== undefined) this.recs[to] = rec;
    this.slotOf.set(this.ids[to] as number, to);
  }

  private grow(cap: number): void {
    const c = Math.max(cap, 16);
    this.ids = resized(this.ids, c);
    this.sym = resized(this.sym, c);
    this.acct = resized(this.acct, c);
    this.side = resized(this.side, c);
    this.iso = resized(this.iso, c);
    this.lots = resized(this.lots, c);
    this.cost = resized(this.cost, c);
    this.margin = resized(this.margin, c);
    this.ratio = resized(this.ratio, c);
    this.prev = resized(this.prev, c);
    this.next = resized(this.next, c);
    this.cap = c;
  }

  private growAccounts(cap: number): void {
    const c = Math.max(cap, 16);
    this.wallet = resized(this.wallet, c);
    this.head = resized(this.head, c);
    this.crossCount = resized(this.crossCount, c);
    this.accUpnl = resized(this.accUpnl, c);
    this.accMm = resized(this.accMm, c);
    this.accScale = resized(this.accScale, c);
    this.accRatio = resized(this.accRatio, c);
    this.accCap = c;
  }
}

type Column = Float64Array | Int32Array | Int8Array | Uint8Array;

/** A copy of `old` with `length` slots (new ones zero), of the same element type. */
function resized<T extends Column>(old: T, length: number): T {
  const copy = new (old.constructor as new (length: number) => T)(length);
  copy.set(old);
  return copy;
}
