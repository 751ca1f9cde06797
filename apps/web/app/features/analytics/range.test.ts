import { describe, expect, it } from "vitest";
import { change, languageName, readFilters, toQuery } from "./range.ts";

const NOW = Date.UTC(2026, 10, 22, 15);

describe("dashboard filters", () => {
  it("defaults to the last 7 days and all languages", () => {
    expect(readFilters(new URLSearchParams(), NOW)).toEqual({
      from: "2026-11-16",
      to: "2026-11-22",
      lang: "",
    });
  });

  it("keeps a valid range and language, repairs bad ones", () => {
    const ok = readFilters(new URLSearchParams("from=2026-11-01&to=2026-11-03&lang=ja"), NOW);
    expect(ok).toEqual({ from: "2026-11-01", to: "2026-11-03", lang: "ja" });
    const bad = readFilters(new URLSearchParams("from=2026-12-01&to=nope&lang=xx"), NOW);
    expect(bad).toEqual({ from: "2026-11-16", to: "2026-11-22", lang: "" });
  });

  it("turns days into a half-open millisecond range with the tracking language number", () => {
    const q = new URLSearchParams(toQuery({ from: "2026-11-01", to: "2026-11-01", lang: "ar" }));
    expect(Number(q.get("to")) - Number(q.get("from"))).toBe(86_400_000);
    expect(q.get("lang")).toBe("99");
    expect(languageName("1")).toBe("zh-CN");
    expect(change(15, 10)).toBe(0.5);
    expect(change(3, 0)).toBeNull();
  });
});
