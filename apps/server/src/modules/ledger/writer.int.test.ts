import { PaperCode } from "@meridian/contracts";
import { availableOf, EntryKind, mintEntry } from "@meridian/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlatformDb } from "../../platform/db/index.ts";
import { loadMigrations, migrate } from "../../platform/db/migrate.ts";
import { MIGRATIONS_DIR } from "../../platform/db/migrations/index.ts";
import type { Queryable } from "../../platform/db/types.ts";
import { AppError } from "../../platform/errors.ts";
import { type DbTarget, reopenableDbTargets } from "../../test/db-targets.ts";
import { type BatchWriter, createLedgerWriter, type LedgerService } from "./index.ts";

const targets = reopenableDbTargets("ledger");

/** A module's rows as a batch writer: values gathered per command, one row each in `ledger_test_rows`. */
class Rows implements BatchWriter<string[]> {
  readonly name: string;
  pending: string[] = [];
  /** What happened to it, in order: "write:a,b", "committed:a,b|touched", "clear", "reload", "after". */
  readonly log: string[] = [];
  failNext = false;
  brokenReason: string | null = null;

  constructor(name: string) {
    this.name = name;
  }

  take(): string[] {
    const b = this.pending;
    this.pending = [];
    return b;
  }

  isEmpty(batch: string[]): boolean {
    return batch.length === 0;
  }

  async write(tx: Queryable, batch: string[]): Promise<void> {
    this.log.push(`write:${batch.join(",")}`);
    for (const value of batch)
      await tx.run("INSERT INTO ledger_test_rows (writer, value) VALUES (?, ?)", [this.name, value]);
    if (this.failNext) {
      this.failNext = false;
      throw new Error(`${this.name} refused its rows`);
    }
  }

  afterCommand(): void {
    this.log.push("after");
  }

  broken(): string | null {
    return this.brokenReason;
  }

  committed(batch: string[], journal: { touched: ReadonlySet<number> }): void {
    this.log.push(`committed:${batch.join(",")}|${[...journal.touched].join(",")}`);
  }

  clear(): void {
    this.pending = [];
    this.log.push("clear");
  }

  async reload(): Promise<void> {
    this.log.push("reload");
  }
}

for (const target of targets) {
  describe(`ledger writer on ${target.name}`, () => {
    let env: Awaited<ReturnType<DbTarget["open"]>>;
    let db: PlatformDb;
    let ledger: LedgerService;
    let fenced = 0;
    const spot = new Rows("spot");
    const margin = new Rows("margin");

    const rows = async () =>
      (
        await db.all<{ writer: string; value: string }>(
          "SELECT writer, value FROM ledger_test_rows ORDER BY id",
        )
      ).map((r) => `${r.writer}:${r.value}`);
    const storedUsdt = async (accountId: number) =>
      (await ledger.repo.accountBalances(accountId)).find(
        (p) => p.account === availableOf(accountId) && p.asset === "USDT",
      )?.amount;

    beforeAll(async () => {
      env = await target.open();
      db = env.db();
      await migrate(db, await loadMigrations(MIGRATIONS_DIR));
      await db.run(
        `CREATE TABLE ledger_test_rows (id ${target.name === "postgres" ? "BIGSERIAL" : "INTEGER"} PRIMARY KEY, writer TEXT NOT NULL, value TEXT NOT NULL)`,
      );
      ledger = createLedgerWriter({
        db,
        fence: async () => {
          fenced++;
        },
      });
      ledger.register(spot);
      ledger.register(margin);
      await ledger.start();
    });
    afterAll(async () => {
      await ledger?.close();
      await db?.close();
      await env?.cleanup();
    });

    it("refuses a second batch writer of the same name", () => {
      expect(() => ledger.register(new Rows("spot"))).toThrow(/spot is registered already/);
    });

    it("writes every registered writer's rows in the commit that answers the command, in registration order", async () => {
      const { id } = await ledger.accountFor("user-1");
      const before = await storedUsdt(id);
      expect(before).toBeGreaterThan(0n);
      spot.log.length = 0;
      margin.log.length = 0;
      const answered = await ledger.transact((tx) => {
        margin.pending.push("m1");
        spot.pending.push("s1", "s2");
        expect(tx.post(mintEntry(EntryKind.TopUp, id, [{ asset: "USDT", amount: 5n }]), id)).toBeNull();
        return "done";
      });
      expect(answered).toBe("done");
      // answered only once durable: the rows, the journal and the balance are stored
      expect(await rows()).toEqual(["spot:s1", "spot:s2", "margin:m1"]);
      expect(await storedUsdt(id)).toBe((before ?? 0n) + 5n);
      expect(spot.log).toEqual(["after", "write:s1,s2", `committed:s1,s2|${id}`]);
      expect(margin.log).toEqual(["after", "write:m1", `committed:m1|${id}`]);
    });

    it("opens no transaction for a group that changed nothing", async () => {
      const before = fenced;
      await ledger.transact(() => null);
      await ledger.flush();
      expect(fenced).toBe(before);
      await ledger.transact(() => spot.pending.push("s3"));
      expect(fenced).toBe(before + 1);
    });

    it("commits changes made between commands once asked (`changed`)", async () => {
      spot.pending.push("between");
      ledger.changed();
      await ledger.flush();
      expect((await rows()).at(-1)).toBe("spot:between");
    });

    it("rolls the whole group back when one writer fails, answers 503, and reloads every writer and the ledger", async () => {
      const { id } = await ledger.accountFor("user-1");
      const stored = await storedUsdt(id);
      const rowsBefore = await rows();
      let rebuilt = 0;
      const off = ledger.onRebuilt(() => rebuilt++);
      spot.log.length = 0;
      margin.log.length = 0;
      margin.failNext = true;
      const failed = await ledger
        .transact((tx) => {
          spot.pending.push("lost");
          margin.pending.push("lost");
          tx.post(mintEntry(EntryKind.TopUp, id, [{ asset: "USDT", amount: 7n }]), id);
        })
        .then(
          () => null,
          (e: unknown) => e,
        );
      off();
      expect(failed).toBeInstanceOf(AppError);
      expect(failed).toMatchObject({ code: PaperCode.PAPER_ONLY });
      expect(await rows()).toEqual(rowsBefore);
      expect(await storedUsdt(id)).toBe(stored);
      // memory was reloaded from the database: the refused top-up is gone there too
      expect(ledger.ledgerBalance(availableOf(id), "USDT")).toBe(stored);
      expect(rebuilt).toBe(1);
      expect(spot.log).toEqual(["after", "write:lost", "clear", "reload"]);
      expect(margin.log).toEqual(["after", "write:lost", "clear", "reload"]);
    });

    it("rebuilds without writing when a writer reports its memory broken", async () => {
      const before = fenced;
      spot.log.length = 0;
      spot.brokenReason = "settlement refused";
      const failed = await ledger
        .transact(() => spot.pending.push("never"))
        .then(
          () => null,
          (e: unknown) => e,
        );
      spot.brokenReason = null;
      expect(failed).toBeInstanceOf(AppError);
      expect(fenced).toBe(before);
      expect(spot.log).toEqual(["after", "clear", "reload"]);
      expect(await rows()).not.toContain("spot:never");
    });

    it("answers a placement from its store when its client order id is stored, without running it", async () => {
      const stored = {
        byClientIds: async (refs: readonly { accountId: number; clientOrderId: string }[]) =>
          refs.filter((r) => r.clientOrderId === "kept").map((r) => ({ ...r, orderId: 42 })),
        refOf: (row: { accountId: number; clientOrderId: string }) => row,
      };
      let ran = 0;
      const hit = await ledger.transactPlacement(
        stored,
        { accountId: 1, clientOrderId: "kept" },
        () => ++ran,
      );
      const miss = await ledger.transactPlacement(
        stored,
        { accountId: 1, clientOrderId: "new" },
        () => ++ran,
      );
      expect(hit).toEqual({ stored: { accountId: 1, clientOrderId: "kept", orderId: 42 } });
      expect(miss).toEqual({ ran: 1 });
      expect(ran).toBe(1);
    });

    it("opens an account once, with the initial balances, and an empty one without", async () => {
      const [a, b] = await Promise.all([ledger.accountFor("user-2"), ledger.accountFor("user-2")]);
      expect(a.id).toBe(b.id);
      expect([a.created, b.created].filter(Boolean)).toHaveLength(1);
      const empty = await ledger.accountFor("user-3", true);
      expect(await ledger.repo.accountBalances(empty.id)).toEqual([]);
      expect((await ledger.repo.accountsOf(["user-2", "user-3"])).map((r) => r.id).sort()).toEqual(
        [a.id, empty.id].sort(),
      );
      const audit = await ledger.audit();
      expect(audit.replayEqualsBalances).toBe(true);
      for (const sum of Object.values(audit.assetSums)) expect(sum).toBe("0");
    });
  });
}
