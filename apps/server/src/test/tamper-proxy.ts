import websocket from "@fastify/websocket";
import Fastify from "fastify";

/**
 * A man in the middle between the live feed and its upstream exchange: REST requests pass
 * through unchanged; every WebSocket text frame from the upstream goes through `tamper`,
 * which may return it as is, change it, or drop it (`undefined`). The live feed's fault
 * tests use it to send what a misbehaving exchange sends (a wrong checksum, a crossed
 * level) without teaching the upstream to misbehave.
 */
export interface TamperProxy {
  readonly url: string;
  /** Replaces the frame filter (frames from the upstream to the feed). */
  tamper(f: (frame: string) => string | undefined): void;
  /** Frames the feed sent to the upstream (subscriptions), in order. */
  readonly sent: string[];
  close(): Promise<void>;
}

export async function startTamperProxy(upstream: string): Promise<TamperProxy> {
  let filter: (frame: string) => string | undefined = (f) => f;
  const sent: string[] = [];
  const app = Fastify({ logger: false });
  await app.register(websocket);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => done(null, body));
  app.register(async (scope) => {
    scope.get("/v2/ws/*", { websocket: true }, (socket, req) => {
      const target = new WebSocket(`${upstream.replace(/^http/, "ws")}${req.url}`);
      const early: string[] = [];
      target.addEventListener("open", () => {
        for (const m of early.splice(0)) target.send(m);
      });
      target.addEventListener("message", (e) => {
        const out = filter(String(e.data));
        if (out !== undefined && socket.readyState === socket.OPEN) socket.send(out);
      });
      target.addEventListener("close", () => socket.close());
      target.addEventListener("error", () => socket.close());
      socket.on("message", (data: Buffer) => {
        const text = data.toString();
        sent.push(text);
        if (target.readyState === WebSocket.OPEN) target.send(text);
        else early.push(text);
      });
      socket.on("close", () => target.close());
    });
    scope.all("/*", async (req, reply) => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === "string" && k !== "host" && k !== "content-length") headers.set(k, v);
      const res = await fetch(`${upstream}${req.url}`, {
        method: req.method,
        headers,
        body: req.method === "GET" || req.method === "HEAD" ? undefined : new Uint8Array(req.body as Buffer),
      });
      reply.code(res.status);
      const type = res.headers.get("content-type");
      if (type !== null) reply.header("content-type", type);
      return Buffer.from(await res.arrayBuffer());
    });
  });
  const url = await app.listen({ port: 0, host: "127.0.0.1" });
  return {
    url,
    sent,
    tamper(f) {
      filter = f;
    },
    close: () => app.close(),
  };
}
