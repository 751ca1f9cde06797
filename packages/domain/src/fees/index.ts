export * from "./vip-tiers.ts";
