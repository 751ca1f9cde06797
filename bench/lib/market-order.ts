/**
 * The body of the `n`th order the order benchmarks send: a small market order, buys and
 * sells in turn (so balances stay put), each with its own clientOrderId `${tag}-${n}`.
 */
export function marketOrderBody(n: number, tag: string): string {
  return JSON.stringify({
    symbol: "BTCUSDT",
    side: n % 2 === 0 ? "BUY" : "SELL",
    type: "MARKET",
    quantity: "0.0001",
    clientOrderId: `${tag}-${n}`,
  });
}
