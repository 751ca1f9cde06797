import "./zod-csp.ts";

export * from "./accounts.ts";
export * from "./admin-content.ts";
export * from "./airdrops.ts";
export * from "./api-keys.ts";
export * from "./codes.ts";
export * from "./envelope.ts";
export * from "./futures.ts";
export * from "./http.ts";
export * from "./locales.ts";
export * from "./margin.ts";
export * from "./market.ts";
export * from "./sign.ts";
export * from "./simulation.ts";
export * from "./system.ts";
export * from "./tg-apps.ts";
export * from "./tracking.ts";
export * from "./trading.ts";
