import type { FastifyBaseLogger, FastifyInstance } from "fastify";

type ChildLoggerFactory = Parameters<FastifyInstance["setChildLoggerFactory"]>[0];

type Level = "fatal" | "error" | "warn" | "info" | "debug" | "trace";
type LogArgs = Parameters<FastifyBaseLogger["info"]>;

/** pino's level test; a logger without one is taken to log everything (the child is made). */
function enabled(logger: FastifyBaseLogger, level: Level): boolean {
  const test = (logger as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
  return typeof test === "function" ? test.call(logger, level) : true;
}

/**
 * A request's logger that makes its pino child (the request id bound) only when a line
 * is written at an enabled level: the same lines as the child itself, and nothing to
 * build when none is. A pino child serialises its bindings at creation, through the
 * redaction of every wildcard path (platform/logger.ts), which was about 3 % of the
 * server's main-thread CPU per tracking upload when the level logs no request lines.
 */
class LazyChildLogger {
  #parent: FastifyBaseLogger;
  #bindings: Record<string, unknown>;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Record<string, unknown>) {
    this.#parent = parent;
    this.#bindings = bindings;
  }

  #real(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings);
    return this.#child;
  }

  #write(level: Level, args: LogArgs): void {
    if (this.#child === undefined && !enabled(this.#parent, level)) return;
    (this.#real()[level] as (...args: LogArgs) => void)(...args);
  }

  get level(): string {
    return this.#child === undefined ? this.#parent.level : this.#child.level;
  }

  set level(level: string) {
    this.#real().level = level;
  }

  get msgPrefix(): string | undefined {
    return (this.#real() as { msgPrefix?: string }).msgPrefix;
  }

  fatal(...args: LogArgs): void {
    this.#write("fatal", args);
  }
  error(...args: LogArgs): void {
    this.#write("error", args);
  }
  warn(...args: LogArgs): void {
    this.#write("warn", args);
  }
  info(...args: LogArgs): void {
    this.#write("info", args);
  }
  debug(...args: LogArgs): void {
    this.#write("debug", args);
  }
  trace(...args: LogArgs): void {
    this.#write("trace", args);
  }
  silent(): void {}

  child(...args: Parameters<FastifyBaseLogger["child"]>): FastifyBaseLogger {
    return this.#real().child(...args);
  }

  isLevelEnabled(level: string): boolean {
    return enabled(this.#child ?? this.#parent, level as Level);
  }

  bindings(): Record<string, unknown> {
    const real = this.#real() as { bindings?: () => Record<string, unknown> };
    return typeof real.bindings === "function" ? real.bindings() : { ...this.#bindings };
  }
}

/**
 * Fastify's `childLoggerFactory` for a hot route (set on its scope with
 * `setChildLoggerFactory`): request loggers made on first use. A route logger with its
 * own level or serializers is made at once, as Fastify's default factory does.
 */
export const lazyChildLoggerFactory: ChildLoggerFactory = (logger, bindings, options) =>
  options.level !== undefined || options.serializers !== undefined || options.redact !== undefined
    ? logger.child(bindings, options)
    : (new LazyChildLogger(logger, bindings) as unknown as FastifyBaseLogger);
