import { randomUUID } from "node:crypto";
import type { Queryable } from "../../platform/db/types.ts";
import type { Logger } from "../../platform/logger.ts";
import { FencedError, WriterLease } from "./lease.ts";

export type RoleState = "single" | "follower" | "promoting" | "writer" | "deposed";

export interface WriterRoleOptions {
  /** How long a lease lasts without renewal (default 2,000 ms). */
  leaseMs?: number;
  /** How often the holder renews and followers look (default 250 ms). */
  pollMs?: number;
  instanceId?: string;
  /** The lease statements run on a session of their own (see `WriterLease`). */
  pinned?: boolean;
  /** False: this instance never takes the lease (it only serves and forwards). Default true. */
  candidate?: boolean;
  /** Called once when this instance learns it is no longer the writer (default: exit). */
  onDeposed?: (reason: string) => void;
}

/**
 * Which instance is the trading writer. On SQLite there is one process, always the
 * writer (`single`). On PostgreSQL every instance starts as a follower and takes the
 * lease (`WriterLease`) when it is free or lapsed; promotion runs the trading modules'
 * start hooks in registration order (books and open orders rebuilt from the database,
 * the price feed taken over), then `ready` hooks (the command bus). A writer that
 * cannot renew, or whose commit is fenced, is deposed: it stops for good (`onDeposed`),
 * and its supervisor restarts it as a follower.
 */
/**
 * How long a lease lasts unrenewed. A dead writer is replaced at once (its lease session
 * is gone); only a stopped or stalled one waits this long. Two seconds deposed writers
 * whose start-up stalled the event loop on a loaded two-core machine.
 */
const DEFAULT_LEASE_MS = 5_000;

export class WriterRole {
  readonly id: string;
  private readonly lease: WriterLease | null;
  private readonly log: Logger;
  private readonly pollMs: number;
  private readonly onDeposed: (reason: string) => void;
  private readonly candidate: boolean;
  private stateValue: RoleState;
  private myEpoch: number | null = null;
  /** The writer's epoch as last seen (this instance's when it writes); null: none known. */
  private seen: { epoch: number; live: boolean } | null = null;
  private readonly startHooks: Array<() => Promise<void> | void> = [];
  private readonly readyHooks: Array<(epoch: number) => Promise<void> | void> = [];
  private readonly changeListeners = new Set<() => void>();
  private timer: NodeJS.Timeout | null = null;
  private lastRenewed = 0;
  private busy = false;
  /** When this instance last became the writer (ms since start of the promotion). */
  promotedInMs: number | null = null;

  private constructor(lease: WriterLease | null, log: Logger, o: WriterRoleOptions) {
    this.lease = lease;
    this.log = log;
    this.id = o.instanceId ?? randomUUID();
    this.pollMs = o.pollMs ?? 250;
    this.onDeposed = o.onDeposed ?? (() => {});
    this.candidate = o.candidate ?? true;
    this.stateValue = lease === null ? "single" : "follower";
  }

  /** One process, always the writer, nothing to fence (SQLite). */
  static single(log: Logger): WriterRole {
    return new WriterRole(null, log, {});
  }

  /** An instance among several on one PostgreSQL: tries the lease once before the modules register. */
  static async elect(db: Queryable, log: Logger, o: WriterRoleOptions = {}): Promise<WriterRole> {
    const role = new WriterRole(
      new WriterLease(db, o.leaseMs ?? DEFAULT_LEASE_MS, o.pinned === true),
      log,
      o,
    );
    const epoch = role.candidate ? await role.lease?.acquire(role.id) : null;
    if (epoch !== null && epoch !== undefined) {
      role.myEpoch = epoch;
      role.stateValue = "writer";
      role.seen = { epoch, live: true };
      role.lastRenewed = Date.now();
      log.info({ instance: role.id, epoch }, "writer: this instance is the trading writer");
    } else {
      await role.look();
      log.info({ instance: role.id, writer: role.seen }, "writer: following");
    }
    return role;
  }

  get state(): RoleState {
    return this.stateValue;
  }

  get clustered(): boolean {
    return this.lease !== null;
  }

  /** True where trading commands run: the single process, or the lease holder once started. */
  get isWriter(): boolean {
    return this.stateValue === "single" || this.stateValue === "writer";
  }

  /** The epoch commands go to: this instance's, or the live writer's last seen; null when none is up. */
  get writerEpoch(): number | null {
    return this.seen?.live === true ? this.seen.epoch : null;
  }

  get epoch(): number | null {
    return this.myEpoch;
  }

  /**
   * A trading module's start (load state, timers): now when this instance writes, else
   * at promotion. Hooks run in the order they were added (the module order).
   */
  async onStart(hook: () => Promise<void> | void): Promise<void> {
    this.startHooks.push(hook);
    if (this.isWriter) await hook();
  }

  /** Runs after every start hook, with the epoch (the command bus subscribes here). */
  onReady(hook: (epoch: number) => Promise<void> | void): void {
    this.readyHooks.push(hook);
  }

  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /**
   * Once every module registered: the elected writer runs its ready hooks (start hooks
   * ran as the modules registered), then it renews and followers watch.
   */
  async start(): Promise<void> {
    if (this.lease === null || this.timer !== null) return;
    if (this.stateValue === "writer" && this.myEpoch !== null)
      for (const hook of this.readyHooks) await hook(this.myEpoch);
    this.timer = setInterval(() => void this.tick(), this.pollMs);
  }

  /** Inside a trading commit: refuses it unless this instance still holds the lease. */
  async fence(tx: Queryable): Promise<void> {
    if (this.lease === null) return;
    if (this.myEpoch === null || this.stateValue === "deposed")
      throw new FencedError(this.myEpoch ?? -1, this.seen?.epoch ?? -1);
    try {
      await this.lease.fence(tx, this.myEpoch);
    } catch (error) {
      if (error instanceof FencedError) this.depose(error.message);
      throw error;
    }
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    if (this.lease !== null && this.stateValue === "writer" && this.myEpoch !== null) {
      await this.lease.release(this.id, this.myEpoch).catch(() => {});
    }
  }

  private emit(): void {
    for (const l of this.changeListeners) l();
  }

  private async tick(): Promise<void> {
    if (this.busy || this.lease === null) return;
    this.busy = true;
    try {
      if (this.stateValue === "writer" || this.stateValue === "promoting") await this.renew();
      else if (this.stateValue === "follower") await this.look();
    } catch (err) {
      this.log.warn({ err }, "writer: lease check failed");
      if (this.stateValue === "writer" && Date.now() - this.lastRenewed > this.lease.leaseMs)
        this.depose("lease not renewed in time");
    } finally {
      this.busy = false;
    }
  }

  private async renew(): Promise<void> {
    if (this.lease === null || this.myEpoch === null) return;
    // A process resumed after a stop (SIGSTOP), or after a long stall, renews only if no
    // other instance took the lease meanwhile (the epoch and holder still match); if one
    // did, its commits were already refused by the fence.
    if (await this.lease.renew(this.id, this.myEpoch)) this.lastRenewed = Date.now();
    else this.depose("another instance holds the lease");
  }

  private async look(): Promise<void> {
    if (this.lease === null) return;
    const s = await this.lease.read();
    const live = s.holder !== null && s.remainingMs > 0;
    const before = this.seen;
    this.seen = { epoch: s.epoch, live };
    if (before?.epoch !== s.epoch || before.live !== live) this.emit();
    if (live || !this.candidate) return;
    const epoch = await this.lease.acquire(this.id);
    if (epoch === null) return;
    // Promotion runs beside the ticks, which renew the lease meanwhile (a large rebuild
    // may take longer than the lease).
    void this.promote(epoch);
  }

  private async promote(epoch: number): Promise<void> {
    const started = Date.now();
    this.myEpoch = epoch;
    this.lastRenewed = Date.now();
    this.stateValue = "promoting";
    this.seen = { epoch, live: false };
    this.emit();
    this.log.warn({ instance: this.id, epoch }, "writer: took the lease; rebuilding");
    try {
      for (const hook of this.startHooks) await hook();
      for (const hook of this.readyHooks) await hook(epoch);
    } catch (err) {
      this.log.error({ err }, "writer: promotion failed");
      this.depose("promotion failed");
      return;
    }
    if (this.stateValue !== "promoting") return;
    this.stateValue = "writer";
    this.seen = { epoch, live: true };
    this.promotedInMs = Date.now() - started;
    this.log.warn(
      { instance: this.id, epoch, ms: this.promotedInMs },
      "writer: this instance is the trading writer",
    );
    this.emit();
  }

  private depose(reason: string): void {
    if (this.stateValue === "deposed" || this.stateValue === "single") return;
    this.stateValue = "deposed";
    this.seen = null;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.log.error({ instance: this.id, epoch: this.myEpoch, reason }, "writer: deposed");
    this.emit();
    this.onDeposed(reason);
  }
}
