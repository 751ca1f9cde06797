import { describe, expect, it } from "vitest";
import { toPostgresPlaceholders } from "./placeholders.ts";

describe("toPostgresPlaceholders", () => {
  it("numbers placeholders in order", () => {
    expect(toPostgresPlaceholders("SELECT * FROM t WHERE a = ? AND b IN (?, ?)")).toBe(
      "SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)",
    );
  });

  it("skips quoted strings (with doubled quotes), identifiers and comments", () => {
    const sql = `SELECT 'a?''b?', "c?", ? -- d?\n, /* e? */ ?`;
    expect(toPostgresPlaceholders(sql)).toBe(`SELECT 'a?''b?', "c?", $1 -- d?\n, /* e? */ $2`);
  });

  it("skips dollar-quoted bodies but not positional-looking text", () => {
    expect(toPostgresPlaceholders("SELECT $$ ? $$, $tag$ ? $tag$, ?")).toBe(
      "SELECT $$ ? $$, $tag$ ? $tag$, $1",
    );
  });

  it("leaves SQL without placeholders untouched", () => {
    expect(toPostgresPlaceholders("SELECT 1")).toBe("SELECT 1");
  });
});
