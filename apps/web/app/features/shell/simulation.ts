/** Local storage flag for paper trading (docs/product.md §3: key simulation-trade). */
export const SIMULATION_STORAGE_KEY = "simulation-trade";

/**
 * Turns simulation mode on before the app goes to a trade page; the trade feature reads
 * the flag (and owns leaving the mode).
 */
export function markSimulationMode(): void {
  try {
    window.localStorage.setItem(SIMULATION_STORAGE_KEY, "1");
  } catch {
    // Without storage the trade page opens in normal mode.
  }
}
