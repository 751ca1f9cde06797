/*
 * Browser storage keys and classes the shell shares with the islands bundle (app/islands),
 * in a module that imports nothing so the bundle stays free of React.
 */

/** Local storage key for the top download bar (docs/product.md §3: "top download bar visible"). */
export const DOWNLOAD_BAR_STORAGE_KEY = "topDownloadBarVisible";
/** Class the document carries while the bar is dismissed, set before first paint. */
export const DOWNLOAD_BAR_HIDDEN_CLASS = "download-bar-hidden";
/** Local storage key for the chosen fiat currency (docs/product.md §3: "fiat name"). */
export const FIAT_STORAGE_KEY = "fiatName";

/** Dispatched on `window` by entry.client just before `hydrateRoot`: React handles events from then on. */
export const HYDRATE_START_EVENT = "meridian:hydrate";
/** Dispatched on `window` by the root layout's first effect, once hydration has committed. */
export const HYDRATED_EVENT = "meridian:hydrated";
