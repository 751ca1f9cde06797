/**
 * The airdrop library (docs/product.md §2): public reads and administrator writes under
 * `/v1/content/airdrops` and `/v1/admin/airdrops`, the demo library, the file import, and
 * the tokens of airdrops that have listed, which the market lists as USDT spot pairs.
 */
import type { MarketListing } from "@meridian/domain";
import type { Platform } from "../../platform/platform.ts";
import { listedTokenPairs } from "./listed-tokens.ts";

export { type AirdropArtworkSubject, airdropArtworkSubjects, indexAllAirdrops } from "./catalogue.ts";
export { importAirdrops, parseImport } from "./import.ts";
export { type ListedToken, listedTokens } from "./listed-tokens.ts";
export { type AirdropsModuleOptions, airdropsModule } from "./routes.ts";
export { type AirdropLibraryFiles, seedAirdropLibrary } from "./seed.ts";
export { HOME_FAQ_KEY } from "./service.ts";
export type { AirdropTexts } from "./texts.ts";
export { AIRDROPS_STORED_HTML, indexAirdrop } from "./writes.ts";

/** The market's listing source: one USDT pair per airdrop token that has listed. */
export function airdropTokenListings(platform: Platform): Promise<MarketListing[]> {
  return listedTokenPairs(platform.db, Date.now());
}
