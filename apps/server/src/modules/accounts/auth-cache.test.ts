import { expect, it } from "vitest";
import { AuthCache } from "./auth-cache.ts";

const session = (token: string) => ({ token });
const user = (id: string) => ({ id });

it("serves a remembered session until its time is up, then reads again", () => {
  const c = new AuthCache<{ token: string }, { id: string }>(1000, 10);
  c.set("t1", "u1", session("t1"), user("u1"), 0, c.epoch);
  expect(c.get("t1", 999)?.user).toEqual({ id: "u1" });
  expect(c.get("t1", 1000)).toBeUndefined();
  expect(c.size).toBe(0);
});

it("forgets a token, or every token of a user, when they are written", () => {
  const c = new AuthCache<{ token: string }, { id: string }>(60_000, 10);
  for (const [t, u] of [
    ["a", "u1"],
    ["b", "u1"],
    ["c", "u2"],
  ] as const)
    c.set(t, u, session(t), user(u), 0, c.epoch);
  c.dropToken("c");
  expect(c.get("c", 1)).toBeUndefined();
  c.dropUser("u1");
  expect(c.get("a", 1)).toBeUndefined();
  expect(c.get("b", 1)).toBeUndefined();
  expect(c.size).toBe(0);
});

it("does not remember rows read while a write dropped anything (the read may predate the write)", () => {
  const c = new AuthCache<{ token: string }, { id: string }>(60_000, 10);
  const epoch = c.epoch;
  c.dropUser("u1");
  c.set("a", "u1", session("a"), user("u1"), 0, epoch);
  expect(c.get("a", 1)).toBeUndefined();
});

it("keeps at most `max` sessions, dropping the oldest", () => {
  const c = new AuthCache<{ token: string }, { id: string }>(60_000, 2);
  c.set("a", "u1", session("a"), user("u1"), 0, c.epoch);
  c.set("b", "u2", session("b"), user("u2"), 0, c.epoch);
  c.set("c", "u3", session("c"), user("u3"), 0, c.epoch);
  expect(c.get("a", 1)).toBeUndefined();
  expect(c.get("c", 1)?.user).toEqual({ id: "u3" });
  expect(c.size).toBe(2);
});
