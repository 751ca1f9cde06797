export * from "./codes.ts";
export * from "./envelope.ts";
export * from "./http.ts";
export * from "./system.ts";
export * from "./accounts.ts";
export * from "./sign.ts";
export * from "./locales.ts";
export * from "./tracking.ts";
