import { randomUUID } from "node:crypto";
import { DEPTH_MAX_LIMIT, type Depth } from "@meridian/contracts";
import type { Redis } from "ioredis";
import type { Logger } from "../../platform/logger.ts";
import { redisChannel } from "../../platform/redis.ts";
import type { FeedTrade } from "./feed.ts";
import type { MarketService } from "./service.ts";

export const LEADER_KEY = "market:leader";
export const TICKS_CHANNEL = "market:ticks";
export const DEPTH_CHANNEL = "market:depth";
/** How often the leader publishes the books that changed, and how deep. */
const DEPTH_PUBLISH_MS = 100;
const DEPTH_PUBLISHED_LEVELS = DEPTH_MAX_LIMIT;

/**
 * Who leads when the trading writer does (several instances on PostgreSQL): the price
 * feed runs where the orders are matched, and moves with the writer's lease.
 */
export interface LeaderSignal {
  readonly isLeader: boolean;
  onChange(listener: () => void): () => void;
}

const RENEW = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

/** What the cluster drives of the market service. */
export type ClusterMarket = Pick<
  MarketService,
  "apply" | "anchorFeed" | "startFeed" | "stopFeedLoop" | "followBooks" | "applyDepth" | "changedDepths"
>;

export interface ClusterOptions {
  /** Lease length; the leader renews at a third of it. */
  leaseMs?: number;
  instanceId?: string;
  /** Leadership from elsewhere (the trading writer) instead of the Redis lease; books are then published too. */
  leader?: LeaderSignal;
}

/**
 * Several instances behind one Redis: one price leader runs the feed and publishes
 * every trade batch on `<REDIS_PREFIX>market:ticks`; the others apply what it publishes (their own
 * feed stays stopped). Leadership is a lease (`SET market:leader <id> NX PX`), renewed
 * by the leader; when it lapses (the leader died) a follower takes it, re-anchors its
 * own feed at the last prices it saw and carries on, so prices stay continuous.
 * A follower's history is generated locally and ends at the first price the leader
 * sends for a symbol, so live prices agree everywhere; deep history may differ.
 */
export class MarketCluster {
  readonly id: string;
  private readonly redis: Redis;
  private readonly market: ClusterMarket;
  private readonly log: Logger;
  private readonly leaseMs: number;
  private subscriber: Redis | undefined;
  private timer: NodeJS.Timeout | undefined;
  private leader = false;
  private readonly signal: LeaderSignal | undefined;
  private offSignal: (() => void) | undefined;
  private depthTimer: NodeJS.Timeout | undefined;

  constructor(redis: Redis, market: ClusterMarket, log: Logger, options: ClusterOptions = {}) {
    this.redis = redis;
    this.market = market;
    this.log = log;
    this.leaseMs = options.leaseMs ?? 9000;
    this.id = options.instanceId ?? randomUUID();
    this.signal = options.leader;
  }

  get isLeader(): boolean {
    return this.leader;
  }

  async start(): Promise<void> {
    const sub = this.redis.duplicate();
    sub.on("error", () => {});
    sub.on("message", (channel: string, message: string) => this.onMessage(channel, message));
    await sub.subscribe(redisChannel(this.redis, TICKS_CHANNEL), redisChannel(this.redis, DEPTH_CHANNEL));
    this.subscriber = sub;
    const signal = this.signal;
    if (signal !== undefined) {
      const follow = () => {
        if (signal.isLeader && !this.leader) this.promote();
        else if (!signal.isLeader && this.leader) this.demote();
      };
      this.market.followBooks(!signal.isLeader);
      this.offSignal = signal.onChange(follow);
      follow();
      return;
    }
    await this.tick();
    this.timer = setInterval(() => void this.tick(), Math.max(100, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  private onMessage(channel: string, message: string): void {
    if (this.leader) return;
    try {
      if (channel === redisChannel(this.redis, DEPTH_CHANNEL)) {
        const batch = JSON.parse(message) as { from: string; books: Depth[] };
        if (batch.from !== this.id) for (const d of batch.books) this.market.applyDepth(d);
        return;
      }
      const batch = JSON.parse(message) as { from: string; trades: FeedTrade[] };
      if (batch.from !== this.id && Array.isArray(batch.trades)) this.market.apply(batch.trades);
    } catch (err) {
      this.log.warn({ err }, "market: bad tick message");
    }
  }

  /** The leader, with a writer signal: sends the books that changed (user orders rest only here). */
  private publishDepths(seen: Map<string, number>): void {
    const books = this.market.changedDepths(seen, DEPTH_PUBLISHED_LEVELS);
    if (books.length === 0) return;
    this.redis
      .publish(redisChannel(this.redis, DEPTH_CHANNEL), JSON.stringify({ from: this.id, books }))
      .catch((err: unknown) => {
        this.log.warn({ err }, "market: depth publish failed");
      });
  }

  private publish(trades: readonly FeedTrade[]): void {
    this.redis
      .publish(redisChannel(this.redis, TICKS_CHANNEL), JSON.stringify({ from: this.id, trades }))
      .catch((err: unknown) => {
        this.log.warn({ err }, "market: publish failed");
      });
  }

  /** Renews or acquires the lease and switches role when it changed. */
  private async tick(): Promise<void> {
    try {
      if (this.leader) {
        const renewed = await this.redis.eval(RENEW, 1, LEADER_KEY, this.id, String(this.leaseMs));
        if (renewed !== 1) this.demote();
        return;
      }
      const got = await this.redis.set(LEADER_KEY, this.id, "PX", this.leaseMs, "NX");
      if (got === "OK") this.promote();
    } catch (err) {
      this.log.warn({ err }, "market: leader lease check failed");
    }
  }

  private promote(): void {
    this.leader = true;
    this.log.info({ instance: this.id }, "market: price leader");
    this.market.followBooks(false);
    this.market.anchorFeed();
    this.market.startFeed((trades) => this.publish(trades));
    if (this.signal !== undefined) {
      const seen = new Map<string, number>();
      this.depthTimer = setInterval(() => this.publishDepths(seen), DEPTH_PUBLISH_MS);
      this.depthTimer.unref();
    }
  }

  private demote(): void {
    this.leader = false;
    this.log.warn({ instance: this.id }, "market: lost price leadership; following");
    this.market.stopFeedLoop();
    if (this.depthTimer) clearInterval(this.depthTimer);
    this.depthTimer = undefined;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.offSignal?.();
    if (this.depthTimer) clearInterval(this.depthTimer);
    this.depthTimer = undefined;
    if (this.leader) {
      this.market.stopFeedLoop();
      this.leader = false;
      if (this.signal === undefined)
        await this.redis.eval(RELEASE, 1, LEADER_KEY, this.id).catch(() => undefined);
    }
    const sub = this.subscriber;
    this.subscriber = undefined;
    if (sub) await sub.quit().catch(() => sub.disconnect());
  }
}
