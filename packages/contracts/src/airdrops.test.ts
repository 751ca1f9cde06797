import { describe, expect, it } from "vitest";
import { airdropListQuerySchema, airdropStatus, claimOpen, countdownParts, daysLeft } from "./airdrops.ts";

const DAY = 86_400_000;
const start = Date.UTC(2026, 2, 1);
const end = Date.UTC(2026, 2, 31);

describe("airdropStatus", () => {
  it("is upcoming until the start instant, active from it", () => {
    expect(airdropStatus(start, end, start - 1)).toBe("upcoming");
    expect(airdropStatus(start, end, start)).toBe("active");
    expect(airdropStatus(start, end, start + 1)).toBe("active");
  });
  it("is closed from the end instant on", () => {
    expect(airdropStatus(start, end, end - 1)).toBe("active");
    expect(airdropStatus(start, end, end)).toBe("closed");
    expect(airdropStatus(start, end, end + DAY)).toBe("closed");
  });
  it("uses UTC instants, whatever the local zone", () => {
    expect(
      airdropStatus(Date.parse("2026-03-01T00:00:00Z"), end, Date.parse("2026-03-01T00:59:59+01:00")),
    ).toBe("upcoming");
  });
});

describe("daysLeft", () => {
  it("counts whole days, as the countdown does", () => {
    expect(daysLeft(end, end - 1)).toBe(0);
    expect(daysLeft(end, end - DAY)).toBe(1);
    expect(daysLeft(end, end - DAY - 1)).toBe(1);
    expect(daysLeft(end, start)).toBe(30);
    // The report's case: 26 days 13 hours left read "27 days left" beside a countdown of 26 d.
    const now = end - 26 * DAY - 13 * 3_600_000;
    expect(daysLeft(end, now)).toBe(26);
    for (let left = -DAY; left < 40 * DAY; left += 3_599_999) {
      expect(daysLeft(end, end - left)).toBe(countdownParts(left).days);
    }
  });
  it("is 0 at and after the end instant", () => {
    expect(daysLeft(end, end)).toBe(0);
    expect(daysLeft(end, end + 5 * DAY)).toBe(0);
  });
});

describe("claimOpen", () => {
  it("opens at the claim time, whatever the campaign's status", () => {
    const claim = end + 3 * DAY;
    expect(claimOpen(claim, end)).toBe(false);
    expect(claimOpen(claim, claim - 1)).toBe(false);
    expect(claimOpen(claim, claim)).toBe(true);
    expect(claimOpen(claim, claim + 400 * DAY)).toBe(true);
    expect(claimOpen(null, claim)).toBe(false);
  });
});

describe("countdownParts", () => {
  it("splits a duration and never goes negative", () => {
    expect(countdownParts(DAY + 2 * 3_600_000 + 3 * 60_000 + 4_999)).toEqual({
      days: 1,
      hours: 2,
      minutes: 3,
      seconds: 4,
    });
    expect(countdownParts(-5)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
  });
});

describe("airdropListQuerySchema", () => {
  it("defaults and coerces query strings", () => {
    const q = airdropListQuerySchema.parse({
      page: "2",
      pageSize: "10",
      sort: "estValue",
      order: "desc",
      status: "",
    });
    expect(q).toMatchObject({ page: 2, pageSize: 10, sort: "estValue", order: "desc" });
    expect(q.status).toBeUndefined();
  });
  it("rejects unknown sort columns and page sizes", () => {
    expect(airdropListQuerySchema.safeParse({ sort: "password" }).success).toBe(false);
    expect(airdropListQuerySchema.safeParse({ pageSize: "1000" }).success).toBe(false);
  });
});
