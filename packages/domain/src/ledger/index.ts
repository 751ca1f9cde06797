export * from "./assets.ts";
export * from "./ledger.ts";
