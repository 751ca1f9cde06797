/** Airdrops: the module's routes, demo library, stored rich text and file import. */
export { importAirdrops, parseImport } from "./import.ts";
export { routes as airdropsRoutes } from "./routes.ts";
export { type AirdropLibraryFiles, seedAirdropLibrary } from "./seed.ts";
export { HOME_FAQ_KEY } from "./service.ts";
export { AIRDROPS_STORED_HTML, indexAirdrop, saveFaq } from "./writes.ts";
