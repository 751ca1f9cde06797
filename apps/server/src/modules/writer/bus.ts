import { randomUUID } from "node:crypto";
import { Code, PaperCode } from "@meridian/contracts";
import type { Redis } from "ioredis";
import { AppError } from "../../platform/errors.ts";
import type { Logger } from "../../platform/logger.ts";
import { redisChannel } from "../../platform/redis.ts";
import type { WriterRole } from "./role.ts";

/** JSON with bigint and Map (service arguments and answers carry both). */
export function encode(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    typeof v === "bigint" ? { $b: v.toString() } : v instanceof Map ? { $m: [...v] } : v,
  );
}

export function decode(text: string): unknown {
  return JSON.parse(text, (_k, v: unknown) => {
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      if (typeof o.$b === "string" && Object.keys(o).length === 1) return BigInt(o.$b);
      if (Array.isArray(o.$m) && Object.keys(o).length === 1) return new Map(o.$m as [unknown, unknown][]);
    }
    return v;
  });
}

/** The retryable answer when no writer took or answered a command (docs/architecture.md). */
export function writerUnavailable(committed: "no" | "unknown"): AppError {
  return new AppError(
    PaperCode.WRITER_UNAVAILABLE,
    committed === "no"
      ? "Trading is moving to another server; please retry"
      : "Trading moved to another server before answering; check, or retry an order with the same clientOrderId",
    { status: 503, data: { retry: true, committed }, headers: { "retry-after": "1" } },
  );
}

interface Command {
  id: string;
  reply: string;
  svc: string;
  m: string;
  a: unknown[];
}

interface Answer {
  id: string;
  ok: boolean;
  v?: unknown;
  e?: { code: string; msg: string; status: number; data: unknown; headers: Record<string, string> };
}

interface Pending {
  resolve(a: Answer): void;
}

/** What a stream hears from the writer: an account and the pushes (JSON texts) for it. */
export type StreamListener = (accountId: number, texts: readonly string[]) => void;

export interface WriterBusOptions {
  /** How long a follower waits for a writer to take and answer a command (default 10 s). */
  timeoutMs?: number;
}

/**
 * Commands and events between the instances over Redis pub/sub. A follower publishes a
 * command on `writer:cmd:<epoch>` (the channel of the writer it last saw) and waits on
 * its own reply channel; PUBLISH answers how many subscribers got it, so a command no
 * writer received is known as not delivered and sent again once a writer is up. The
 * writer runs the command on its services and publishes the answer after the commit.
 * Events: the writer publishes every commit's pushes on `writer:events`; every
 * instance hands them to its sockets. Pub/sub keeps nothing for a subscriber that was not
 * connected, so each publish carries the writer's sequence number: an instance whose
 * subscription dropped (it resubscribes on reconnect) or that sees a number skipped (a
 * publish that failed on the writer) tells its streams (`onGap`), which close their
 * sockets so that the clients reconnect and load the state again.
 */
export class WriterBus {
  private readonly redis: Redis;
  private readonly role: WriterRole;
  private readonly log: Logger;
  private readonly timeoutMs: number;
  private readonly services = new Map<string, { target: object; methods: ReadonlySet<string> }>();
  private readonly pending = new Map<string, Pending>();
  private readonly streams = new Map<string, Set<StreamListener>>();
  private readonly gapListeners = new Set<(reason: string) => void>();
  /** The writer: the number of its last event publish. */
  private seq = 0;
  /** A follower: the last publish number heard, per writer instance. */
  private readonly heard = new Map<string, number>();
  private sub: Redis | undefined;
  private outbox: Array<[string, number, readonly string[]]> = [];
  private marks = new Map<string, number>();
  private flushing = false;
  private listening: string | null = null;

  constructor(redis: Redis, role: WriterRole, log: Logger, o: WriterBusOptions = {}) {
    this.redis = redis;
    this.role = role;
    this.log = log;
    this.timeoutMs = o.timeoutMs ?? 10_000;
  }

  private channel(name: string): string {
    return redisChannel(this.redis, `writer:${name}`);
  }

  async start(): Promise<void> {
    // Named, so that an operator (and the tests) can find it in CLIENT LIST.
    const sub = this.redis.duplicate({ connectionName: `meridian-bus-${this.role.id}` });
    sub.on("error", () => {});
    sub.on("message", (channel: string, message: string) => this.onMessage(channel, message));
    await sub.subscribe(this.channel(`reply:${this.role.id}`), this.channel("events"));
    // ioredis resubscribes after a reconnect; what was published meanwhile is gone.
    sub.on("ready", () => this.gap("subscription reconnected"));
    this.sub = sub;
  }

  /** The writer: receives commands of its epoch from now on. */
  async listen(epoch: number): Promise<void> {
    const channel = this.channel(`cmd:${epoch}`);
    await this.sub?.subscribe(channel);
    this.listening = channel;
  }

  async stop(): Promise<void> {
    const sub = this.sub;
    this.sub = undefined;
    for (const p of this.pending.values())
      p.resolve({ id: "", ok: false, e: errorOf(writerUnavailable("unknown")) });
    this.pending.clear();
    if (sub) await sub.quit().catch(() => sub.disconnect());
  }

  /** Lets followers run these methods of `target` in the writer. */
  expose(svc: string, target: object, methods: readonly string[]): void {
    this.services.set(svc, { target, methods: new Set(methods) });
  }

  // ---- events ------------------------------------------------------------------------------

  /** Called when this instance may have missed pushes: its streams resynchronise their clients. */
  onGap(listener: (reason: string) => void): () => void {
    this.gapListeners.add(listener);
    return () => this.gapListeners.delete(listener);
  }

  private gap(reason: string): void {
    this.heard.clear();
    this.log.warn({ reason }, "writer: pushes may have been missed; streams resynchronise");
    for (const l of this.gapListeners) l(reason);
  }

  onStream(stream: string, listener: StreamListener): () => void {
    let set = this.streams.get(stream);
    if (set === undefined) {
      set = new Set();
      this.streams.set(stream, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /** The writer: sends a commit's pushes for one account to the other instances (one PUBLISH per loop turn). */
  publish(stream: string, accountId: number, texts: readonly string[]): void {
    if (texts.length === 0) return;
    this.outbox.push([stream, accountId, texts]);
    this.schedule();
  }

  /**
   * The writer: how far its pushes went (the last trade id pushed, say), stored with the
   * PUBLISH that carries them (one MULTI), so a new writer knows which commits of a
   * writer that died between commit and publish were never pushed (`readMark`).
   */
  mark(key: string, value: number): void {
    this.marks.set(key, value);
    this.schedule();
  }

  async readMark(key: string): Promise<number | null> {
    const v = await this.redis.get(`writer:mark:${key}`);
    return v === null ? null : Number(v);
  }

  private schedule(): void {
    if (this.flushing) return;
    this.flushing = true;
    queueMicrotask(() => {
      this.flushing = false;
      const items = this.outbox;
      const marks = this.marks;
      this.outbox = [];
      this.marks = new Map();
      const m = this.redis.multi();
      if (items.length > 0)
        m.publish(this.channel("events"), JSON.stringify({ f: this.role.id, s: ++this.seq, i: items }));
      for (const [key, value] of marks) m.set(`writer:mark:${key}`, String(value));
      m.exec().catch((err: unknown) => {
        this.log.warn({ err }, "writer: event publish failed");
      });
    });
  }

  // ---- commands ----------------------------------------------------------------------------

  /**
   * Runs `svc.m(...args)` in the writer and settles with its answer. `retrySafe`: the
   * command may be sent again to a new writer when the old one went away before
   * answering (placements with a client order id: the writer finds the stored order).
   */
  async call(svc: string, m: string, args: unknown[], retrySafe: boolean): Promise<unknown> {
    const id = randomUUID();
    const deadline = Date.now() + this.timeoutMs;
    let sentTo: number | null = null;
    for (;;) {
      // This instance became the writer meanwhile: the command runs here.
      if (this.role.isWriter) {
        if (sentTo !== null && !retrySafe) throw writerUnavailable("unknown");
        return await this.local(svc, m, args);
      }
      const epoch = this.role.writerEpoch;
      if (epoch === null) {
        if (Date.now() > deadline) throw writerUnavailable(sentTo === null ? "no" : "unknown");
        await this.waitForChange(Math.min(200, deadline - Date.now()));
        continue;
      }
      if (sentTo !== null && sentTo !== epoch && !retrySafe) throw writerUnavailable("unknown");
      const answer = new Promise<Answer>((resolve) => this.pending.set(id, { resolve }));
      const payload: Command = { id, reply: this.channel(`reply:${this.role.id}`), svc, m, a: args };
      let receivers = 0;
      try {
        receivers = await this.redis.publish(this.channel(`cmd:${epoch}`), encode(payload));
      } catch (err) {
        this.log.warn({ err }, "writer: command publish failed");
      }
      if (receivers === 0) {
        this.pending.delete(id);
        if (Date.now() > deadline) throw writerUnavailable(sentTo === null ? "no" : "unknown");
        await this.waitForChange(Math.min(100, deadline - Date.now()));
        continue;
      }
      sentTo = epoch;
      const got = await this.race(answer, epoch, deadline);
      this.pending.delete(id);
      if (got === "timeout") throw writerUnavailable("unknown");
      if (got === "moved") {
        if (!retrySafe) throw writerUnavailable("unknown");
        continue;
      }
      if (got.ok) return got.v;
      const e = got.e;
      throw new AppError(e?.code ?? Code.INTERNAL, e?.msg ?? "Internal error", {
        status: e?.status ?? 500,
        data: e?.data ?? undefined,
        headers: e?.headers ?? {},
      });
    }
  }

  /** The answer, or "moved" once another writer than `epoch` is up, or "timeout". */
  private race(
    answer: Promise<Answer>,
    epoch: number,
    deadline: number,
  ): Promise<Answer | "moved" | "timeout"> {
    return new Promise((resolve) => {
      let done = false;
      const finish = (v: Answer | "moved" | "timeout") => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        off();
        resolve(v);
      };
      const timer = setTimeout(() => finish("timeout"), Math.max(0, deadline - Date.now()));
      const off = this.role.onChange(() => {
        const now = this.role.writerEpoch;
        if (now !== null && now !== epoch) finish("moved");
      });
      answer.then(finish, () => finish("timeout"));
    });
  }

  private waitForChange(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, ms));
      const off = this.role.onChange(done);
      function done() {
        clearTimeout(timer);
        off();
        resolve();
      }
    });
  }

  private onMessage(channel: string, message: string): void {
    try {
      if (channel === this.listening) void this.run(decode(message) as Command);
      else if (channel === this.channel("events")) this.deliver(message);
      else {
        const a = decode(message) as Answer;
        this.pending.get(a.id)?.resolve(a);
      }
    } catch (err) {
      this.log.warn({ err }, "writer: bad bus message");
    }
  }

  private deliver(message: string): void {
    const m = JSON.parse(message) as { f: string; s: number; i: Array<[string, number, string[]]> };
    if (m.f === this.role.id) return;
    const last = this.heard.get(m.f);
    this.heard.set(m.f, m.s);
    if (last !== undefined && m.s !== last + 1) this.gap(`publish ${last + 1} of ${m.f} missing`);
    for (const [stream, accountId, texts] of m.i) {
      const set = this.streams.get(stream);
      if (set !== undefined) for (const l of set) l(accountId, texts);
    }
  }

  /** Runs an exposed method on this instance's service. */
  private local(svc: string, m: string, args: unknown[]): unknown {
    const s = this.services.get(svc);
    if (s === undefined || !s.methods.has(m)) throw new Error(`not a writer command: ${svc}.${m}`);
    const fn = (s.target as Record<string, unknown>)[m] as (...a: unknown[]) => unknown;
    return fn.apply(s.target, args);
  }

  private async run(c: Command): Promise<void> {
    let answer: Answer;
    try {
      if (!this.role.isWriter) throw writerUnavailable("no");
      const v = await this.local(c.svc, c.m, c.a);
      answer = { id: c.id, ok: true, v };
    } catch (error) {
      if (!(error instanceof AppError))
        this.log.error({ err: error, svc: c.svc, m: c.m }, "writer: command failed");
      answer = { id: c.id, ok: false, e: errorOf(error) };
    }
    await this.redis.publish(c.reply, encode(answer)).catch((err: unknown) => {
      this.log.warn({ err }, "writer: reply publish failed");
    });
  }
}

function errorOf(error: unknown): NonNullable<Answer["e"]> {
  if (error instanceof AppError)
    return {
      code: error.code,
      msg: error.message,
      status: error.status,
      data: error.data,
      headers: error.headers,
    };
  return { code: Code.INTERNAL, msg: "Internal error", status: 500, data: null, headers: {} };
}

/**
 * `T` as the other modules see it once `K` is forwarded: each of those methods answers a
 * Promise, because on a follower it runs in the writer over the bus. A call site that
 * forgets to await is a type error here, not a Promise where a value was meant. `local`
 * is the service itself, for the modules whose own commands run in the writer and read
 * its engine there (a follower's copy is not started: nothing else may use it).
 */
export type Forwarded<T, K extends keyof T> = Omit<T, K> & {
  [P in K]: T[P] extends (...a: infer A) => infer R ? (...a: A) => Promise<Awaited<R>> : never;
} & { readonly local: T };

/** `target` with `methods` made asynchronous, run here: one process, or the writer itself. */
export function direct<T extends object, const K extends keyof T & string>(
  target: T,
  methods: readonly K[],
): Forwarded<T, K> {
  return wrap(target, methods, (fn, _prop, args) => settle(fn, target, args));
}

function settle(fn: (...a: unknown[]) => unknown, t: object, args: unknown[]): Promise<unknown> {
  try {
    return Promise.resolve(fn.apply(t, args));
  } catch (error) {
    return Promise.reject(error);
  }
}

function wrap<T extends object, K extends keyof T & string>(
  target: T,
  methods: readonly K[],
  call: (fn: (...a: unknown[]) => unknown, prop: K, args: unknown[]) => Promise<unknown>,
): Forwarded<T, K> {
  const names = new Set<string>(methods);
  // One wrapper per method (not one per property read), renewed if the method is replaced.
  const made = new Map<string, { fn: unknown; wrapper: unknown }>();
  return new Proxy(target, {
    get(t, prop) {
      if (prop === "local") return t;
      const v = Reflect.get(t, prop, t) as unknown;
      if (typeof v !== "function" || typeof prop !== "string") return v;
      const hit = made.get(prop);
      if (hit !== undefined && hit.fn === v) return hit.wrapper;
      const fn = v as (...a: unknown[]) => unknown;
      const wrapper = names.has(prop) ? (...args: unknown[]) => call(fn, prop as K, args) : fn.bind(t);
      made.set(prop, { fn: v, wrapper });
      return wrapper;
    },
  }) as unknown as Forwarded<T, K>;
}

/**
 * `target` as seen by the routes: the listed methods run in the writer (here when this
 * instance writes, over the bus when it follows) and answer a Promise either way;
 * everything else (reads of committed state from the database, pure helpers) runs here.
 */
export function forwarded<T extends object, const K extends keyof T & string>(
  target: T,
  svc: string,
  methods: readonly K[],
  role: WriterRole,
  bus: WriterBus | undefined,
  retrySafe: (m: string, args: unknown[]) => boolean = () => false,
): Forwarded<T, K> {
  bus?.expose(svc, target, methods);
  return wrap(target, methods, (fn, prop, args) => {
    if (!role.clustered || role.isWriter) return settle(fn, target, args);
    if (bus === undefined) return Promise.reject(writerUnavailable("no"));
    return bus.call(svc, prop, args, retrySafe(prop, args));
  });
}
