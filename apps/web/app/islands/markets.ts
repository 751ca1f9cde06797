import { followHeroPrices } from "../features/home/hero-feed.ts";

/**
 * The home hero's popular cryptocurrencies (features/home/hero-markets.tsx): the server's
 * prices, then live from the market socket, each row's price and change replaced in place.
 * The socket and the formatter are chunks loaded here, on a page that has the list.
 */
export function wireHeroMarkets(root: Document): void {
  const rows = new Map<string, { price: HTMLElement; change: HTMLElement }>();
  const coins: { symbol: string; decimals: number }[] = [];
  for (const item of root.querySelectorAll<HTMLElement>(".home-markets-item[data-symbol][data-decimals]")) {
    const symbol = item.dataset.symbol ?? "";
    const decimals = Number(item.dataset.decimals);
    const price = item.querySelector<HTMLElement>(".home-markets-price");
    const change = item.querySelector<HTMLElement>(".home-markets-change");
    if (!price || !change || !Number.isInteger(decimals)) continue;
    rows.set(symbol, { price, change });
    coins.push({ symbol, decimals });
  }
  followHeroPrices(coins, (symbol, quote) => {
    const row = rows.get(symbol);
    if (!row) return;
    if (row.price.textContent !== quote.price) row.price.textContent = quote.price;
    const change = `${quote.change}%`;
    if (row.change.textContent !== change) row.change.textContent = change;
    const down = quote.change.startsWith("-");
    row.change.classList.toggle("is-down", down);
    row.change.classList.toggle("is-up", !down);
  });
}
