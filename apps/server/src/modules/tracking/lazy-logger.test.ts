import { Writable } from "node:stream";
import Fastify, { type FastifyBaseLogger, type FastifyServerOptions, LogController } from "fastify";
import { describe, expect, it, vi } from "vitest";
import { REDACT_PATHS } from "../../platform/logger.ts";
import { lazyChildLoggerFactory } from "./lazy-logger.ts";

function sink(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return {
    stream,
    lines: () =>
      chunks
        .join("")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** A pino logger as Fastify makes it (pino is Fastify's, not a dependency of the server). */
function pino(
  options: Exclude<FastifyServerOptions["logger"], boolean | undefined>,
  stream: Writable,
): FastifyBaseLogger {
  return Fastify({ logger: { ...options, stream } }).log;
}

function withoutTime(line: Record<string, unknown> | undefined): Record<string, unknown> {
  const { time: _time, ...rest } = line ?? {};
  return rest;
}

describe("lazyChildLoggerFactory", () => {
  it("writes the lines a pino child writes (bindings, redaction, levels)", () => {
    const out = sink();
    const parent = pino({ level: "info", redact: { paths: REDACT_PATHS, censor: "[redacted]" } }, out.stream);
    const eager = parent.child({ requestId: "r-1" });
    const lazy = lazyChildLoggerFactory.call({} as never, parent, { requestId: "r-1" }, {}, {} as never);
    for (const logger of [eager, lazy]) {
      logger.info({ password: "x", nested: { token: "y" } }, "hello %s", "there");
      logger.debug("not written");
      logger.error(new Error("boom"));
      logger.child({ part: 2 }).warn("from a child");
    }
    const lines = out.lines();
    expect(lines).toHaveLength(6);
    for (let i = 0; i < 3; i++) {
      const eagerLine = withoutTime(lines[i]);
      const lazyLine = withoutTime(lines[i + 3]);
      if (typeof eagerLine.err === "object") {
        // the stack names the line that made the error
        delete (eagerLine.err as Record<string, unknown>).stack;
        delete (lazyLine.err as Record<string, unknown>).stack;
      }
      expect(lazyLine).toEqual(eagerLine);
    }
    expect(lines[3]).toMatchObject({
      requestId: "r-1",
      password: "[redacted]",
      nested: { token: "[redacted]" },
    });
    expect(lines[5]).toMatchObject({ requestId: "r-1", part: 2, msg: "from a child" });
    expect(lazy.level).toBe("info");
  });

  it("makes no child while nothing is written at an enabled level", () => {
    const out = sink();
    const parent = pino({ level: "warn" }, out.stream);
    const child = vi.spyOn(parent, "child");
    const lazy = lazyChildLoggerFactory.call({} as never, parent, { requestId: "r-2" }, {}, {} as never);
    lazy.info("skipped");
    lazy.debug("skipped");
    expect(child).not.toHaveBeenCalled();
    expect(lazy.level).toBe("warn");
    lazy.warn("written");
    expect(child).toHaveBeenCalledTimes(1);
    lazy.error("written too");
    expect(child).toHaveBeenCalledTimes(1);
    expect(out.lines().map((line) => [line.requestId, line.msg])).toEqual([
      ["r-2", "written"],
      ["r-2", "written too"],
    ]);
  });

  it("takes a route's own level at once, as Fastify's default factory does", () => {
    const parent = pino({ level: "warn" }, sink().stream);
    const logger = lazyChildLoggerFactory.call(
      {} as never,
      parent,
      { requestId: "r-3" },
      { level: "debug" },
      {} as never,
    );
    expect(logger.level).toBe("debug");
  });

  it("keeps Fastify's request lines (incoming, completed) with the request id", async () => {
    const out = sink();
    const app = Fastify({
      logger: { level: "info", stream: out.stream },
      logController: new LogController({ requestIdLogLabel: "requestId" }),
      genReqId: () => "req-42",
    });
    await app.register(async (scope) => {
      scope.setChildLoggerFactory(lazyChildLoggerFactory);
      scope.post("/lazy", async (request) => {
        request.log.info({ seen: true }, "inside");
        return { ok: true };
      });
    });
    const answer = await app.inject({ method: "POST", url: "/lazy", payload: { a: 1 } });
    expect(answer.json()).toEqual({ ok: true });
    await app.close();
    const lines = out.lines().filter((line) => line.requestId === "req-42");
    expect(lines.map((line) => line.msg)).toEqual(["incoming request", "inside", "request completed"]);
    expect(lines[0]).toMatchObject({ req: { method: "POST", url: "/lazy" } });
    expect(lines[2]).toMatchObject({ res: { statusCode: 200 } });
  });
});
