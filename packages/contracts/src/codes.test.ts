import { describe, expect, it } from "vitest";
import * as airdropRules from "./airdrop-rules.ts";
import * as hostilePaths from "./hostile-paths.ts";
import * as http from "./http.ts";
import * as main from "./index.ts";
import * as locales from "./locales.ts";
import * as mediaRules from "./media-rules.ts";
import * as sameOriginPath from "./same-origin-path.ts";
import * as simulation from "./simulation.ts";
import * as tgAppRules from "./tg-app-rules.ts";

/**
 * Every `*Code` table the package exports: its entry points as package.json lists them,
 * so a table added to any exported file is checked without being named here.
 */
function codeTables(): Map<string, Record<string, string>> {
  const entries = [
    main,
    locales,
    airdropRules,
    tgAppRules,
    simulation,
    http,
    sameOriginPath,
    hostilePaths,
    mediaRules,
  ];
  const tables = new Map<string, Record<string, string>>();
  for (const mod of entries as Record<string, unknown>[]) {
    for (const [name, value] of Object.entries(mod)) {
      if (!name.endsWith("Code") || value === null || typeof value !== "object") continue;
      const values = Object.values(value);
      if (values.length > 0 && values.every((v) => typeof v === "string"))
        tables.set(name, value as Record<string, string>);
    }
  }
  return tables;
}

describe("the code catalogue", () => {
  it("finds every table", () => {
    expect([...codeTables().keys()].sort()).toEqual(
      expect.arrayContaining([
        "AccountCode",
        "ApiKeyCode",
        "Code",
        "FuturesCode",
        "MarginCode",
        "PaperCode",
        "PorCode",
        "SecurityCode",
        "SubCode",
        "TgAppCode",
      ]),
    );
  });

  // The spec (docs/product.md §8) gives no code two meanings, so no value is shared: a
  // client that translates or reacts by code alone must never mix two modules' refusals.
  it("gives every value one meaning across all tables", () => {
    const owners = new Map<string, string[]>();
    for (const [table, codes] of codeTables())
      for (const [key, code] of Object.entries(codes))
        owners.set(code, [...(owners.get(code) ?? []), `${table}.${key}`]);
    const shared = [...owners].filter(([, names]) => names.length > 1);
    expect(shared).toEqual([]);
  });

  it("keeps every value a five-digit code", () => {
    for (const [table, codes] of codeTables())
      for (const [key, code] of Object.entries(codes)) expect(`${table}.${key}=${code}`).toMatch(/=\d{5}$/);
  });
});
