export * from "./assets.ts";
export * from "./ledger.ts";
export * from "./settlement.ts";
export * from "./statement.ts";
