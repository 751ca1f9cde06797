export * from "./assets.ts";
export * from "./ledger.ts";
export * from "./settlement.ts";
