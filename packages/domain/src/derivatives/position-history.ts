/**
 * Closed futures positions (the "position history" record) replayed from an account's
 * fills, oldest first: a position opens when a (symbol, position side) leaves zero and
 * closes when it returns to zero. In one-way mode (BOTH) a fill that crosses zero closes
 * the position and opens the opposite one with the rest. Still-open positions are not
 * history and are left out.
 */

export interface HistoryFill {
  readonly symbol: string;
  readonly positionSide: "BOTH" | "LONG" | "SHORT";
  readonly side: "BUY" | "SELL";
  readonly lots: number;
  readonly ticks: number;
  readonly realisedPnl: bigint;
  readonly fee: bigint;
  readonly liquidation: boolean;
  readonly time: number;
}

/** An exact fraction `num / den` (den > 0). */
export interface Fraction {
  readonly num: bigint;
  readonly den: bigint;
}

const gcd = (a: bigint, b: bigint): bigint => {
  let x = a < 0n ? -a : a;
  let y = b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x === 0n ? 1n : x;
};

/** acc + lots / ticks, reduced. */
function addPerTick(acc: Fraction, lots: number, ticks: number): Fraction {
  const num = acc.num * BigInt(ticks) + BigInt(lots) * acc.den;
  const den = acc.den * BigInt(ticks);
  const g = gcd(num, den);
  return { num: num / g, den: den / g };
}

export interface ClosedPosition {
  readonly symbol: string;
  readonly positionSide: "BOTH" | "LONG" | "SHORT";
  readonly direction: "LONG" | "SHORT";
  readonly openTime: number;
  readonly closeTime: number;
  readonly maxLots: number;
  /** Sums of ticks x lots over the opening and the closing fills (averages = sum / lots). */
  readonly openTicksLots: bigint;
  readonly openLots: number;
  readonly closeTicksLots: bigint;
  readonly closeLots: number;
  /**
   * Sums of lots / ticks over the opening and the closing fills: a coin-M position's
   * average prices are harmonic means, lots / sum.
   */
  readonly openPerTick: Fraction;
  readonly closePerTick: Fraction;
  readonly realisedPnl: bigint;
  readonly fees: bigint;
  readonly liquidated: boolean;
}

interface Open {
  size: number;
  direction: "LONG" | "SHORT";
  openTime: number;
  maxLots: number;
  openTicksLots: bigint;
  openLots: number;
  closeTicksLots: bigint;
  closeLots: number;
  openPerTick: Fraction;
  closePerTick: Fraction;
  realisedPnl: bigint;
  fees: bigint;
  liquidated: boolean;
}

/** Closed positions, newest first. `fills` must be in time order. */
export function closedPositions(fills: readonly HistoryFill[]): ClosedPosition[] {
  const open = new Map<string, Open>();
  const closed: ClosedPosition[] = [];
  for (const f of fills) {
    const key = `${f.symbol}\n${f.positionSide}`;
    // Signed size: long positive. A hedge-mode side only ever grows in its own direction.
    const signed = f.side === "BUY" ? f.lots : -f.lots;
    let rest = signed;
    let fee = f.fee;
    let pnl = f.realisedPnl;
    while (rest !== 0) {
      let p = open.get(key);
      if (p === undefined) {
        const direction = f.positionSide === "BOTH" ? (rest > 0 ? "LONG" : "SHORT") : f.positionSide;
        p = {
          size: 0,
          direction,
          openTime: f.time,
          maxLots: 0,
          openTicksLots: 0n,
          openLots: 0,
          closeTicksLots: 0n,
          closeLots: 0,
          openPerTick: { num: 0n, den: 1n },
          closePerTick: { num: 0n, den: 1n },
          realisedPnl: 0n,
          fees: 0n,
          liquidated: false,
        };
        open.set(key, p);
      }
      const sign = p.direction === "LONG" ? 1 : -1;
      const along = rest * sign;
      if (along > 0 || p.size === 0) {
        const lots = Math.abs(rest);
        p.size += lots;
        p.openLots += lots;
        p.openTicksLots += BigInt(f.ticks) * BigInt(lots);
        p.openPerTick = addPerTick(p.openPerTick, lots, f.ticks);
        p.maxLots = Math.max(p.maxLots, p.size);
        p.fees += fee;
        fee = 0n;
        rest = 0;
      } else {
        const lots = Math.min(p.size, -along);
        p.size -= lots;
        p.closeLots += lots;
        p.closeTicksLots += BigInt(f.ticks) * BigInt(lots);
        p.closePerTick = addPerTick(p.closePerTick, lots, f.ticks);
        p.realisedPnl += pnl;
        p.fees += fee;
        p.liquidated ||= f.liquidation;
        pnl = 0n;
        fee = 0n;
        rest += lots * sign;
        if (p.size === 0) {
          open.delete(key);
          const { size: _size, ...done } = p;
          closed.push({ ...done, symbol: f.symbol, positionSide: f.positionSide, closeTime: f.time });
        }
        if (f.positionSide !== "BOTH") rest = 0;
      }
    }
  }
  return closed.reverse();
}
