export * from "./codes.ts";
export * from "./envelope.ts";
