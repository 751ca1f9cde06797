import { expect, it } from "vitest";
import { KeyedMutex } from "./mutex.ts";

const tick = () => new Promise((r) => setTimeout(r, 1));

it("runs work under one key one at a time, other keys alongside, and forgets idle keys", async () => {
  const locks = new KeyedMutex();
  const log: string[] = [];
  const job = (key: string, name: string) =>
    locks.run(key, async () => {
      log.push(`${name}+`);
      await tick();
      log.push(`${name}-`);
      return name;
    });
  const done = await Promise.all([job("a", "a1"), job("a", "a2"), job("b", "b1")]);
  expect(done).toEqual(["a1", "a2", "b1"]);
  // a2 starts only after a1 ended; b1 did not wait for a1.
  expect(log.indexOf("a2+")).toBeGreaterThan(log.indexOf("a1-"));
  expect(log.indexOf("b1+")).toBeLessThan(log.indexOf("a1-"));
  expect(locks.size).toBe(0);
});

it("releases the key when the work throws", async () => {
  const locks = new KeyedMutex();
  const failed = locks.run("k", async () => {
    throw new Error("boom");
  });
  const next = locks.run("k", async () => "ran");
  await expect(failed).rejects.toThrow("boom");
  await expect(next).resolves.toBe("ran");
  expect(locks.size).toBe(0);
});
