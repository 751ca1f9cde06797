import type { FastifyInstance } from "fastify";
import type { Queryable } from "../../platform/db/types.ts";
import type { Platform } from "../../platform/platform.ts";
import { type Forwarded, forwarded, type StreamListener, WriterBus } from "./bus.ts";
import { WriterRole } from "./role.ts";
import { pinnedSession } from "./session.ts";

export { decode, direct, encode, type Forwarded, WriterBus, writerUnavailable } from "./bus.ts";
export { FencedError, WriterLease } from "./lease.ts";
export { type RoleState, WriterRole } from "./role.ts";

/**
 * For `forward`'s `retrySafe`: `body` carries a string `key` (a client id: the command
 * finds what an earlier attempt committed, so a new writer may run it again).
 */
export function carriesClientId(body: unknown, key: string): boolean {
  return (
    typeof body === "object" && body !== null && typeof (body as Record<string, unknown>)[key] === "string"
  );
}

/** What the trading modules get from the writer module (`api.writer`). */
export interface Writer {
  readonly role: WriterRole;
  readonly bus: WriterBus | undefined;
  /** Inside a trading commit: refuses it unless this instance still holds the lease. */
  fence(tx: Queryable): Promise<void>;
  /** `target` with `methods` run in the writer (see `forwarded`): those answer a Promise. */
  forward<T extends object, const K extends keyof T & string>(
    target: T,
    svc: string,
    methods: readonly K[],
    retrySafe?: (m: string, args: unknown[]) => boolean,
  ): Forwarded<T, K>;
  /** The writer: a commit's pushes for an account's sockets on the other instances. */
  publish(stream: string, accountId: number, texts: readonly string[]): void;
  /** Pushes the writer published (this instance's sockets). */
  onStream(stream: string, listener: StreamListener): () => void;
  /** This instance may have missed published pushes: close the sockets, the clients reload. */
  onGap(listener: () => void): () => void;
  /** True when pushes must go to other instances too. */
  readonly fansOut: boolean;
}

declare module "fastify" {
  interface FastifyInstance {
    /** Set by `writerRoutes`: who writes, the command bus, fencing. */
    writer: Writer;
  }
}

export interface WriterModuleOptions {
  /** Called when this instance stops being the writer (default: log and exit 70, the supervisor restarts it). */
  onDeposed?: (reason: string) => void;
  leaseMs?: number;
  /** Default: WRITER_CANDIDATE from the environment ("0": this instance never writes), else true. */
  candidate?: boolean;
}

function envLease(): number | undefined {
  const v = Number(process.env.WRITER_LEASE_MS);
  return Number.isInteger(v) && v >= 500 ? v : undefined;
}

/**
 * The trading writer (docs/architecture.md, "Several instances"). On SQLite the process
 * is the writer. On PostgreSQL the instances elect one through the `writer_lease` row;
 * the trading modules start their engines through `role.onStart` (now on the writer, at
 * promotion on a follower), wrap their services with `forward` (commands run in the
 * writer, sent over Redis from a follower), fence every commit, and fan their pushes out
 * with `publish`. Built first by the composition root (`modules/trading-core.ts`): the
 * market's price leader is the writer.
 */
export async function registerWriter(
  api: FastifyInstance,
  platform: Platform,
  options: WriterModuleOptions = {},
): Promise<Writer> {
  const onDeposed =
    options.onDeposed ??
    ((reason: string) => {
      api.log.fatal({ reason }, "writer: deposed; exiting so that the supervisor restarts this instance");
      setImmediate(() => process.exit(70));
    });
  const leaseMs = options.leaseMs ?? envLease();
  // The lease runs on a session of its own when the URL is known (its pid marks this
  // process alive); with a database handed in (tests), on the pool, by lapse only.
  const url = platform.config.databaseUrl;
  const session = platform.db.dialect === "postgres" && url !== undefined ? pinnedSession(url) : undefined;
  const role =
    platform.db.dialect === "postgres"
      ? await WriterRole.elect(session ?? platform.db, api.log, {
          pinned: session !== undefined,
          onDeposed,
          candidate: options.candidate ?? process.env.WRITER_CANDIDATE !== "0",
          ...(leaseMs === undefined ? {} : { leaseMs }),
        })
      : WriterRole.single(api.log);
  const bus =
    role.clustered && platform.redis !== undefined ? new WriterBus(platform.redis, role, api.log) : undefined;
  if (bus !== undefined) {
    await bus.start();
    role.onReady((epoch) => bus.listen(epoch));
  }
  const writer: Writer = {
    role,
    bus,
    fence: (tx) => role.fence(tx),
    forward: (target, svc, methods, retrySafe) => forwarded(target, svc, methods, role, bus, retrySafe),
    publish: (stream, accountId, texts) => bus?.publish(stream, accountId, texts),
    onStream: (stream, listener) => bus?.onStream(stream, listener) ?? (() => false),
    onGap: (listener) => bus?.onGap(listener) ?? (() => false),
    fansOut: bus !== undefined,
  };
  api.decorate("writer", writer);
  api.addHook("onReady", async () => {
    await role.start();
  });
  api.addHook("onClose", async () => {
    await role.stop();
    await bus?.stop();
    await session?.close();
  });
  return writer;
}
