import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defineInstrument, type InstrumentSpec } from "../instrument.ts";
import { EventLog } from "../matching/event-log.ts";
import { OrderBook } from "../matching/order-book.ts";
import { Side, Stp, Tif } from "../matching/types.ts";
import { asAsset, asLots, asSymbol, asTicks } from "../units.ts";
import { type PairUnits, pairUnits } from "./assets.ts";
import {
  availableOf,
  burnEntry,
  EntryKind,
  heldOf,
  holdEntry,
  type JournalEntry,
  Ledger,
  LedgerCode,
  mintEntry,
} from "./ledger.ts";
import {
  finishOrder,
  holdFor,
  newOrderFunds,
  type OrderFunds,
  planMarketBuy,
  settleFill,
} from "./settlement.ts";

function btcSpec(): InstrumentSpec {
  const r = defineInstrument({
    symbol: asSymbol("BTCUSDT"),
    base: asAsset("BTC"),
    quote: asAsset("USDT"),
    tickSize: "0.01",
    lotSize: "0.00001",
    minNotional: "0",
  });
  if (!r.ok) throw new Error(r.error.code);
  return r.value;
}

const MAKER_BASE = 2 ** 50;
const INITIAL = [
  { asset: "USDT", amount: 50_000n * 10n ** 8n },
  { asset: "BTC", amount: 5n * 10n ** 7n },
];

/** The order service's accounting in miniature, driven by a real order book. */
class PaperSim {
  readonly spec = btcSpec();
  readonly units: PairUnits;
  readonly ledger = new Ledger();
  readonly journal: JournalEntry[] = [];
  readonly log = new EventLog();
  readonly book: OrderBook;
  readonly funds = new Map<number, OrderFunds>();
  refusedSettlements = 0;
  private nextId = 1;
  private nextMakerId = MAKER_BASE;

  constructor() {
    const units = pairUnits(this.spec);
    if (units === null) throw new Error("pair not carried");
    this.units = units;
    this.book = new OrderBook(this.spec, this.log);
  }

  private apply(entry: JournalEntry): boolean {
    const refusal = this.ledger.apply(entry);
    if (refusal === null) this.journal.push(entry);
    return refusal === null;
  }

  private must(entry: JournalEntry | null): void {
    if (entry !== null && !this.apply(entry)) this.refusedSettlements++;
  }

  activate(account: number): void {
    this.apply(mintEntry(EntryKind.Activate, account, INITIAL));
  }

  topUp(account: number, asset: string, amount: bigint): void {
    this.apply(mintEntry(EntryKind.TopUp, account, [{ asset, amount }]));
  }

  maker(side: 0 | 1, ticks: number, lots: number): void {
    this.log.clear();
    this.book.limit(this.nextMakerId++, 0, side, asTicks(ticks), asLots(lots), Tif.GTC, Stp.ExpireTaker, 0);
    this.process();
  }

  place(o: {
    account: number;
    side: 0 | 1;
    kind: "limit" | "ioc" | "fok" | "gtx" | "market";
    ticks: number;
    lots: number;
    makerPpm: number;
    takerPpm: number;
  }): "placed" | "insufficient" | "no-liquidity" {
    let ticks = o.ticks;
    let lots = o.lots;
    if (o.kind === "market" && o.side === 0) {
      const plan = planMarketBuy(this.spec, this.units, this.book.depth(Side.Sell, 1000), { lots });
      if (plan === null) return "no-liquidity";
      ticks = plan.capTicks;
      lots = plan.lots;
    }
    const held = holdFor(this.spec, this.units, o.side, ticks, lots, o);
    const id = this.nextId++;
    const asset = o.side === 0 ? "USDT" : "BTC";
    if (!this.apply(holdEntry(o.account, asset, held))) return "insufficient";
    this.funds.set(
      id,
      newOrderFunds({
        id,
        accountId: o.account,
        side: o.side,
        units: this.units,
        makerPpm: o.makerPpm,
        takerPpm: o.takerPpm,
        held,
      }),
    );
    this.log.clear();
    if (o.kind === "market" && o.side === 1)
      this.book.market(id, o.account, 1, asLots(lots), Stp.ExpireMaker, 0);
    else {
      const tif =
        o.kind === "market" || o.kind === "ioc"
          ? Tif.IOC
          : o.kind === "fok"
            ? Tif.FOK
            : o.kind === "gtx"
              ? Tif.GTX
              : Tif.GTC;
      this.book.limit(id, o.account, o.side, asTicks(ticks), asLots(lots), tif, Stp.ExpireMaker, 0);
    }
    this.process();
    return "placed";
  }

  cancel(pick: number): void {
    const live = [...this.funds.keys()];
    const id = live[pick % Math.max(1, live.length)];
    if (id === undefined) return;
    this.log.clear();
    this.book.cancel(id, 0);
    this.process();
  }

  reset(account: number): void {
    for (const f of [...this.funds.values()]) {
      if (f.accountId !== account) continue;
      this.log.clear();
      this.book.cancel(f.id, 0);
      this.process();
    }
    this.must(burnEntry(account, this.ledger.balancesOf(availableOf(account))));
    this.apply(mintEntry(EntryKind.Reset, account, INITIAL));
  }

  private process(): void {
    const touched = new Set<number>();
    for (const e of this.log.events) {
      if (e.type === "trade") {
        const maker = { order: this.funds.get(e.makerId) ?? null, role: "maker" as const };
        const taker = { order: this.funds.get(e.takerId) ?? null, role: "taker" as const };
        const [buyer, seller] = e.makerSide === Side.Buy ? [maker, taker] : [taker, maker];
        this.must(settleFill(this.spec, this.units, e.price, e.qty, buyer, seller).entry);
        touched.add(e.makerId);
        touched.add(e.takerId);
      } else if (e.type !== "delta") touched.add(e.id);
    }
    for (const id of touched) {
      const f = this.funds.get(id);
      if (f === undefined || this.book.has(id)) continue;
      this.must(finishOrder(f));
      this.funds.delete(id);
    }
  }

  /** Every invariant the ledger promises, checked after each step. */
  check(accounts: readonly number[]): void {
    expect(this.refusedSettlements).toBe(0);
    for (const asset of ["USDT", "BTC"]) {
      expect(this.ledger.total(asset)).toBe(0n);
      for (const a of accounts) {
        expect(this.ledger.balance(availableOf(a), asset)).toBeGreaterThanOrEqual(0n);
        let held = 0n;
        for (const f of this.funds.values()) {
          const heldAsset = f.side === 0 ? "USDT" : "BTC";
          if (f.accountId === a && heldAsset === asset) held += f.held;
        }
        expect(this.ledger.balance(heldOf(a), asset)).toBe(held);
      }
    }
    expect(Ledger.replay(this.journal).ledger.equals(this.ledger)).toBe(true);
  }
}

const ACCOUNTS = [1, 2, 3];
const account = fc.constantFrom(...ACCOUNTS);
const side = fc.constantFrom<0 | 1>(0, 1);
const ticks = fc.integer({ min: 9_990_000, max: 10_010_000 });
const lots = fc.integer({ min: 1, max: 80_000 });
const ppm = fc.constantFrom(0, 200, 400, 1000);

const op = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      k: fc.constant("place" as const),
      account,
      side,
      kind: fc.constantFrom("limit", "limit", "ioc", "fok", "gtx", "market"),
      ticks,
      lots,
      makerPpm: ppm,
      takerPpm: ppm,
    }),
  },
  { weight: 3, arbitrary: fc.record({ k: fc.constant("maker" as const), side, ticks, lots }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant("cancel" as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant("topup" as const),
      account,
      asset: fc.constantFrom("USDT", "BTC"),
      amount: fc.bigInt({ min: 1n, max: 10n ** 12n }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("reset" as const), account }) },
);

describe("paper ledger under random trading", () => {
  it("conserves every asset, never overdraws a user, and equals a replay of its journal", () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 60 }), (ops) => {
        const sim = new PaperSim();
        for (const a of ACCOUNTS) sim.activate(a);
        for (const o of ops) {
          if (o.k === "place") {
            // NOTE: the engine takes `ticks`/`lots` as given; kinds map to Tif inside.
            sim.place(o as Parameters<PaperSim["place"]>[0]);
          } else if (o.k === "maker") sim.maker(o.side, o.ticks, o.lots);
          else if (o.k === "cancel") sim.cancel(o.pick);
          else if (o.k === "topup") sim.topUp(o.account, o.asset, o.amount);
          else sim.reset(o.account);
          sim.check(ACCOUNTS);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("Ledger", () => {
  it("refuses an overdraft as data and leaves every balance as it was", () => {
    const ledger = new Ledger();
    expect(ledger.apply(mintEntry(EntryKind.Activate, 7, [{ asset: "USDT", amount: 100n }]))).toBeNull();
    const refusal = ledger.apply(holdEntry(7, "USDT", 101n));
    expect(refusal).toEqual({
      code: LedgerCode.INSUFFICIENT,
      account: availableOf(7),
      asset: "USDT",
      amount: -1n,
    });
    expect(ledger.balance(availableOf(7), "USDT")).toBe(100n);
    expect(ledger.balance(heldOf(7), "USDT")).toBe(0n);
  });

  it("refuses an entry whose postings do not sum to zero per asset", () => {
    const ledger = new Ledger();
    const entry: JournalEntry = {
      kind: EntryKind.TopUp,
      postings: [
        { account: "system:mint", asset: "BTC", amount: -5n },
        { account: availableOf(1), asset: "USDT", amount: 5n },
      ],
    };
    expect(ledger.apply(entry)?.code).toBe(LedgerCode.UNBALANCED);
    expect(ledger.total("BTC")).toBe(0n);
  });
});
