import dayjs from "dayjs";
import { describe, expect, it } from "vitest";
import { clockDateTime, clockTime } from "./clock.ts";

// Single-digit fields, midnight, the last second of a year, a leap day, now.
const times = [
  Date.UTC(2026, 0, 2, 3, 4, 5),
  Date.UTC(2026, 11, 31, 23, 59, 59, 999),
  Date.UTC(2024, 1, 29, 0, 0, 0),
  Date.UTC(2026, 2, 29, 1, 30, 0),
  Date.now(),
];

describe("trading panel clocks", () => {
  it.each(times)("write %d as dayjs did, in the local zone", (ms) => {
    expect(clockTime(ms)).toBe(dayjs(ms).format("HH:mm:ss"));
    expect(clockDateTime(ms)).toBe(dayjs(ms).format("YYYY-MM-DD HH:mm:ss"));
  });

  it("pads every field to its width", () => {
    expect(clockDateTime(Date.UTC(2026, 0, 2, 3, 4, 5))).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });
});
