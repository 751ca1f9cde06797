/**
 * The web app's version: the `ver` of tracking and the stored app version (docs/product.md §3).
 *
 * NOTE: a module of its own, importing nothing: the root layout's tracking hook reads it,
 * and the account client's identity module (which imports the zod contracts) must stay
 * out of the first-load bundle.
 */
export const APP_VERSION = "1.0.0";
