import type { MarketSymbolInfo, PaperBalance, PaperOrder, PaperTrade } from "@meridian/contracts";
import { decimalsOf, divDown, firesOnRise, formatDecimal, isPositive, mul } from "@meridian/domain";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { balanceAmount } from "../../ui/amounts.ts";
import { clockDateTime } from "./clock.ts";
import { useMounted } from "./use-mounted.ts";

export type SymbolIndex = Readonly<Record<string, MarketSymbolInfo>>;

/** A value from an order or trade in its instrument's precision (as sent when unknown). */
function useFormatters(symbols: SymbolIndex) {
  const mounted = useMounted();
  return {
    price: (symbol: string, v: string | null) =>
      v === null ? "--" : formatDecimal(v, symbols[symbol]?.priceDecimals ?? decimalsOf(v)),
    qty: (symbol: string, v: string) => formatDecimal(v, symbols[symbol]?.qtyDecimals ?? decimalsOf(v)),
    quote: (v: string) => formatDecimal(v, 2),
    fee: (v: string) => formatDecimal(v, Math.min(8, Math.max(4, decimalsOf(v)))),
    time: (ms: number) => (mounted ? clockDateTime(ms) : "--"),
    pair: (symbol: string) => {
      const info = symbols[symbol];
      return info ? `${info.base}/${info.quote}` : symbol;
    },
  };
}

/**
 * A table of the trading screens: the column titles (keys of the trade texts), the empty
 * text (when `empty` is set) as a row across them, then the rows.
 */
function TradeTable({
  testId,
  columns,
  empty,
  children,
}: {
  testId: string;
  columns: readonly string[];
  /** What the table says when it has no rows; null when it has some. */
  empty: string | null;
  children: ReactNode;
}) {
  const { t } = useTranslation("trade");
  return (
    <div className="trade-table-wrap">
      <table className="trade-table" data-testid={testId}>
        <thead>
          <tr>
            {columns.map((key) => (
              <th key={key}>{t(key)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {empty === null ? null : (
            <tr>
              <td colSpan={columns.length} className="trade-empty">
                {empty}
              </td>
            </tr>
          )}
          {children}
        </tbody>
      </table>
    </div>
  );
}

function SideCell({ side }: { side: "BUY" | "SELL" }) {
  const { t } = useTranslation("trade");
  return (
    <td className={side === "BUY" ? "is-up" : "is-down"}>
      {t(side === "BUY" ? "form.buyShort" : "form.sellShort")}
    </td>
  );
}

/** A table row: an order (a TP/SL leg marked as a child), or the header of a pair whose parent is not listed. */
export type OrderRowItem =
  | { kind: "order"; order: PaperOrder; child: boolean }
  | { kind: "group"; parentId: number };

/**
 * The orders with each TP/SL pair grouped: right after its parent when the parent is in
 * the list, else together under a header naming the parent (open orders: the parent has
 * filled). Take-profit first; everything else keeps the list's order.
 */
export function groupTpSl(orders: readonly PaperOrder[]): OrderRowItem[] {
  const listed = new Set(orders.map((o) => o.orderId));
  const legs = new Map<number, PaperOrder[]>();
  for (const o of orders) {
    if (o.parentOrderId === undefined) continue;
    const list = legs.get(o.parentOrderId) ?? [];
    list.push(o);
    legs.set(o.parentOrderId, list);
  }
  for (const list of legs.values())
    list.sort((a, b) => Number(a.tpslRole === "STOP_LOSS") - Number(b.tpslRole === "STOP_LOSS"));
  const out: OrderRowItem[] = [];
  const done = new Set<number>();
  const pushLegs = (parentId: number) => {
    if (done.has(parentId)) return;
    done.add(parentId);
    for (const leg of legs.get(parentId) ?? []) out.push({ kind: "order", order: leg, child: true });
  };
  for (const o of orders) {
    if (o.parentOrderId !== undefined) {
      if (listed.has(o.parentOrderId) || done.has(o.parentOrderId)) continue;
      out.push({ kind: "group", parentId: o.parentOrderId });
      pushLegs(o.parentOrderId);
      continue;
    }
    out.push({ kind: "order", order: o, child: false });
    if (legs.has(o.orderId)) pushLegs(o.orderId);
  }
  return out;
}

/** Whether a trigger order fires on a rise: a plain stop against its side, a take-profit the other way. */
export const triggersAbove = (o: PaperOrder): boolean =>
  firesOnRise(o.side === "BUY", o.tpslRole === "TAKE_PROFIT");

interface OrdersTableProps {
  orders: readonly PaperOrder[];
  symbols: SymbolIndex;
  /** Open orders get a cancel button. */
  onCancel?: (order: PaperOrder) => void;
  cancelling?: ReadonlySet<number>;
  testId: string;
}

/** Open orders (with a cancel button each) or past orders of the paper account, TP/SL legs grouped under their parent. */
export function OrdersTable({ orders, symbols, onCancel, cancelling, testId }: OrdersTableProps) {
  const { t } = useTranslation("trade");
  const f = useFormatters(symbols);
  const columns = [
    ...["time", "pair", "type", "side", "price", "trigger", "amount", "filled"],
    ...(onCancel ? ["total", "action"] : ["average", "status"]),
  ].map((k) => `orders.${k}`);
  return (
    <TradeTable
      testId={testId}
      columns={columns}
      empty={orders.length === 0 ? t(onCancel ? "orders.noOpen" : "orders.noHistory") : null}
    >
      {groupTpSl(orders).map((item) => {
        if (item.kind === "group")
          return (
            <tr key={`g${item.parentId}`} className="trade-tpsl-group" data-tpsl-parent={item.parentId}>
              <td colSpan={10}>{t("orders.tpslGroup", { id: item.parentId })}</td>
            </tr>
          );
        const o = item.order;
        return (
          <tr
            key={o.orderId}
            className={item.child ? "trade-tpsl-child" : undefined}
            data-order-id={o.orderId}
            data-status={o.status}
            data-triggered={o.stopPrice ? String(o.triggered) : undefined}
            data-tpsl-role={o.tpslRole}
            data-tpsl-parent={o.parentOrderId}
          >
            <td className="trade-muted">{f.time(o.createdAt)}</td>
            <td>{f.pair(o.symbol)}</td>
            <td>
              {o.tpslRole ? (
                <>
                  <span className={`trade-tpsl-role is-${o.tpslRole === "TAKE_PROFIT" ? "tp" : "sl"}`}>
                    {t(`orders.tpsl.${o.tpslRole}`)}
                  </span>{" "}
                  <small className="trade-muted">{t(`form.types.${o.type}`)}</small>
                </>
              ) : (
                t(`form.types.${o.type}`)
              )}
            </td>
            <SideCell side={o.side} />
            <td>
              {o.type === "MARKET" || o.type === "STOP_MARKET"
                ? t("form.marketPrice")
                : f.price(o.symbol, o.price)}
            </td>
            <td>
              {o.stopPrice ? (
                <bdi dir="ltr">{`${triggersAbove(o) ? "≥" : "≤"} ${f.price(o.symbol, o.stopPrice)}`}</bdi>
              ) : o.takeProfit || o.stopLoss ? (
                <small className="trade-muted" data-testid="order-tpsl-attached">
                  {[
                    o.takeProfit
                      ? t("orders.tpAt", { price: f.price(o.symbol, o.takeProfit.triggerPrice) })
                      : null,
                    o.stopLoss
                      ? t("orders.slAt", { price: f.price(o.symbol, o.stopLoss.triggerPrice) })
                      : null,
                  ]
                    .filter(Boolean)
                    .join(" · ")}
                </small>
              ) : (
                "--"
              )}
              {o.stopPrice && !o.triggered && onCancel ? (
                <small className="trade-muted" data-testid="order-untriggered">
                  {" "}
                  {t("orders.untriggered")}
                </small>
              ) : null}
            </td>
            <td>
              {o.quoteQty && !isPositive(o.origQty) ? `${f.quote(o.quoteQty)}` : f.qty(o.symbol, o.origQty)}
            </td>
            <td>{f.qty(o.symbol, o.executedQty)}</td>
            <td>
              {onCancel
                ? o.price && o.type !== "STOP_MARKET"
                  ? f.quote(mul(o.price, o.origQty))
                  : "--"
                : isPositive(o.executedQty)
                  ? f.price(
                      o.symbol,
                      divDown(o.cummulativeQuoteQty, o.executedQty, symbols[o.symbol]?.priceDecimals ?? 8),
                    )
                  : "--"}
            </td>
            <td>
              {onCancel ? (
                <button
                  type="button"
                  className="trade-link-button"
                  onClick={() => onCancel(o)}
                  disabled={cancelling?.has(o.orderId)}
                  data-testid="cancel-order"
                >
                  {t("orders.cancel")}
                </button>
              ) : (
                <span className={`trade-status is-${o.status.toLowerCase()}`}>
                  {t(`orders.statuses.${o.status}`)}
                </span>
              )}
            </td>
          </tr>
        );
      })}
    </TradeTable>
  );
}

/** Trades of the paper account: time, pair, side, price, amount, total, fee and maker or taker. */
export function TradesTable({
  trades,
  symbols,
  testId,
}: {
  trades: readonly PaperTrade[];
  symbols: SymbolIndex;
  testId: string;
}) {
  const { t } = useTranslation("trade");
  const f = useFormatters(symbols);
  const columns = ["time", "pair", "side", "price", "executed", "total", "fee", "role"].map(
    (k) => `orders.${k}`,
  );
  return (
    <TradeTable testId={testId} columns={columns} empty={trades.length === 0 ? t("orders.noTrades") : null}>
      {trades.map((tr) => (
        <tr key={tr.tradeId} data-trade-id={tr.tradeId}>
          <td className="trade-muted">{f.time(tr.time)}</td>
          <td>{f.pair(tr.symbol)}</td>
          <SideCell side={tr.side} />
          <td>{f.price(tr.symbol, tr.price)}</td>
          <td>{f.qty(tr.symbol, tr.qty)}</td>
          <td>{f.quote(tr.quoteQty)}</td>
          <td>
            {f.fee(tr.fee)} {tr.feeAsset}
          </td>
          <td>{t(tr.isMaker ? "orders.maker" : "orders.taker")}</td>
        </tr>
      ))}
    </TradeTable>
  );
}

/** The paper account's balances: asset, total, available and held. */
export function BalancesTable({ balances, testId }: { balances: readonly PaperBalance[]; testId: string }) {
  const { t } = useTranslation("trade");
  const columns = ["asset", "total", "available", "held"].map((k) => `assets.${k}`);
  return (
    <TradeTable testId={testId} columns={columns} empty={balances.length === 0 ? t("assets.empty") : null}>
      {balances.map((b) => (
        <tr key={b.asset} data-asset={b.asset}>
          <td>
            <strong>{b.asset}</strong>
          </td>
          <td data-testid={`balance-total-${b.asset}`}>{balanceAmount(b.asset, b.total)}</td>
          <td data-testid={`balance-available-${b.asset}`}>{balanceAmount(b.asset, b.available)}</td>
          <td>{balanceAmount(b.asset, b.held)}</td>
        </tr>
      ))}
    </TradeTable>
  );
}
