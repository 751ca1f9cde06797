import type { OrderStatusValue } from "@meridian/contracts";
import { finishOrder, holdEntry, holdFor, newOrderFunds, Side, triggerReached } from "@meridian/domain";
import { stopMarketCap } from "./order-plan.ts";
import { firesAbove, ledgerWallet, NO_TPSL, type OrderRow, type TpSlRole, UNFILLED } from "./rows.ts";
import type { LiveOrder, SpotState } from "./state.ts";

/**
 * How a spot order ends and the conditional orders that follow: `finish` releases what
 * it still holds, and a parent done filling places its TP/SL legs (an OCO pair of
 * trigger orders); stops and legs wait per symbol until the reference price reaches
 * their trigger (`triggerStops`), and a leg that fires or is cancelled takes its partner
 * with it (`dropPartner`).
 */
export class SpotTriggers {
  private readonly s: SpotState;
  /** Symbols where TP/SL orders were just placed: they fire at once if the price is already past. */
  private readonly due = new Set<string>();
  private dueScheduled = false;

  constructor(state: SpotState) {
    this.s = state;
  }

  /** Forgets the symbols due a check (before a reload). */
  clear(): void {
    this.due.clear();
  }

  /** Ends a live order with `status`: its hold is released; a parent that filled places its TP/SL. */
  finish(o: LiveOrder, status: OrderStatusValue): void {
    o.row.status = status;
    this.s.mustPost(finishOrder(o.funds), o.row.accountId, o.row.id);
    this.s.untrack(o);
    this.s.snap(o);
    // A cancelled parent places nothing (its TP/SL were never live); one that filled, or
    // expired after filling part, protects what it filled.
    if ((status === "FILLED" || status === "EXPIRED") && o.row.filledLots > 0 && hasTpSl(o.row))
      this.placeTpSl(o);
  }

  /**
   * Places the TP/SL of a parent that is done filling: one trigger order per leg, on the
   * other side, for the filled quantity, linked as an OCO pair. The pair holds once: a
   * buy parent's legs sell the base its fills delivered (exactly that amount is held); a
   * sell parent's legs buy back, holding the quote of the dearer leg. The hold sits on
   * the first leg and moves to whichever fires. When it cannot be held (the delivered
   * asset was spent meanwhile), both legs are stored as REJECTED.
   */
  private placeTpSl(parent: LiveOrder): void {
    const s = this.s;
    const p = parent.row;
    const side: 0 | 1 = p.side === Side.Buy ? Side.Sell : Side.Buy;
    const lots = p.filledLots;
    const legs: Array<{ role: TpSlRole; trigger: number; price: number | null }> = [];
    if (p.tpTriggerTicks !== null)
      legs.push({ role: "TP", trigger: p.tpTriggerTicks, price: p.tpPriceTicks });
    if (p.slTriggerTicks !== null)
      legs.push({ role: "SL", trigger: p.slTriggerTicks, price: p.slPriceTicks });
    const rates = { makerPpm: p.makerPpm, takerPpm: p.takerPpm };
    const planned = legs.map((leg) => {
      // Stop-market buys run as an IOC limit capped beyond the trigger, as placed ones do.
      const priceTicks = leg.price ?? (side === Side.Buy ? stopMarketCap(parent.spec, leg.trigger) : null);
      return {
        ...leg,
        priceTicks,
        hold: holdFor(parent.spec, parent.units, side, priceTicks ?? 0, lots, rates),
      };
    });
    let hold = 0n;
    for (const l of planned) if (l.hold > hold) hold = l.hold;
    const asset = side === Side.Buy ? parent.units.quote : parent.units.base;
    const wallet = ledgerWallet(p.accountId, p.wallet, p.symbol);
    const ids = planned.map(() => ++s.ids.order);
    const refused = s.post(holdEntry(p.accountId, asset, hold, wallet), p.accountId, ids[0] ?? null) !== null;
    const now = s.now();
    planned.forEach((leg, i) => {
      const id = ids[i] ?? 0;
      const row: OrderRow = {
        ...NO_TPSL,
        id,
        accountId: p.accountId,
        wallet: p.wallet,
        sideEffect: p.wallet === "spot" ? null : "NO_SIDE_EFFECT",
        clientOrderId: `#${id}`,
        symbol: p.symbol,
        side,
        type: leg.price === null ? "STOP_MARKET" : "STOP_LIMIT",
        tif: leg.price === null ? null : "GTC",
        priceTicks: leg.priceTicks,
        stopTicks: leg.trigger,
        qtyLots: lots,
        quoteQty: null,
        status: refused ? "REJECTED" : "NEW",
        ...UNFILLED,
        held: !refused && i === 0 ? hold : 0n,
        makerPpm: p.makerPpm,
        takerPpm: p.takerPpm,
        createdAt: now,
        updatedAt: now,
        parentId: p.id,
        tpslRole: leg.role,
        ocoId: ids.length === 2 ? (ids[1 - i] ?? null) : null,
      };
      const o: LiveOrder = {
        row,
        funds: newOrderFunds({
          id,
          accountId: p.accountId,
          side,
          units: parent.units,
          ...rates,
          held: row.held,
          wallet,
        }),
        spec: parent.spec,
        units: parent.units,
      };
      if (refused) {
        s.snap(o);
        return;
      }
      s.track(o);
      s.snap(o);
      s.watchStop(o);
    });
    if (!refused) this.markDue(p.symbol);
  }

  /**
   * One leg of a TP/SL pair fires or is cancelled: its partner is cancelled, and when it
   * fires the pair's hold moves to it first.
   */
  dropPartner(o: LiveOrder, takeHold: boolean): void {
    const partnerId = o.row.ocoId;
    const partner = partnerId === null ? undefined : this.s.live.get(partnerId);
    if (partner === undefined || partner.row.bookSeq !== null) return;
    if (takeHold) {
      o.funds.held += partner.funds.held;
      partner.funds.held = 0n;
    }
    this.finish(partner, "CANCELED");
  }

  /** Fires the symbol's stops the reference price has reached. */
  triggerStops(symbol: string): number {
    const s = this.s;
    const set = s.stops.get(symbol);
    if (set === undefined || set.size === 0) return 0;
    const last = s.venue.lastTicks(symbol);
    const vb = s.bookOf(symbol);
    if (last === 0 || vb === undefined) return 0;
    let fired = 0;
    for (const o of [...set]) {
      // A TP/SL leg may have gone with its partner earlier in this loop.
      if (!set.has(o)) continue;
      const stop = o.row.stopTicks ?? 0;
      if (!triggerReached(firesAbove(o.row), stop, last)) continue;
      set.delete(o);
      o.row.triggered = true;
      fired++;
      this.dropPartner(o, true);
      s.enter(o, vb);
    }
    return fired;
  }

  /** Symbols with stops waiting (the service checks them when prices move). */
  hasStops(symbol: string): boolean {
    return (this.s.stops.get(symbol)?.size ?? 0) > 0;
  }

  /**
   * Fires the TP/SL orders placed since the last check whose trigger the price has
   * already passed. Placement happens inside a fill (the book is mid-match), so the
   * check waits until the book is idle: the end of the command, or a microtask for fills
   * between commands.
   */
  fireDue(): void {
    for (let round = 0; this.due.size > 0 && round < 100; round++) {
      const symbols = [...this.due];
      this.due.clear();
      for (const symbol of symbols) this.triggerStops(symbol);
    }
  }

  private markDue(symbol: string): void {
    this.due.add(symbol);
    if (this.s.inCommand || this.dueScheduled) return;
    this.dueScheduled = true;
    queueMicrotask(() => {
      this.dueScheduled = false;
      if (!this.s.inCommand) this.fireDue();
    });
  }
}

function hasTpSl(row: OrderRow): boolean {
  return row.tpTriggerTicks !== null || row.slTriggerTicks !== null;
}
