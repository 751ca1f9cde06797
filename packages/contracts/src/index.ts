export * from "./codes.ts";
export * from "./envelope.ts";
export * from "./locales.ts";
export * from "./tracking.ts";
