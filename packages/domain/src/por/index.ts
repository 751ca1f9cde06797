export * from "./sha256.ts";
export * from "./sum-tree.ts";
