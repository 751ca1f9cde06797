/** Airdrops: the module's routes, seed, stored rich text and file import. */
export { importAirdrops, parseImport } from "./import.ts";
export { routes as airdropsRoutes } from "./routes.ts";
export { airdropsSeed } from "./seed.ts";
export { AIRDROPS_STORED_HTML } from "./writes.ts";
