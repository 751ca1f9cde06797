/**
 * The floor for bench:ingest: a bare node:http server that reads each upload and parses
 * its JSON like the ingest does, then answers as the ingest would, storing nothing.
 * Prints its port on stdout once listening.
 */
import http from "node:http";

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    let events = 0;
    try {
      const body: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      events = Array.isArray(body) ? body.length : 0;
    } catch {
      response.writeHead(400).end();
      return;
    }
    response.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    response.end(
      JSON.stringify({
        code: "00000",
        msg: "success",
        data: { received: events, accepted: events, rejected: [] },
      }),
    );
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`${typeof address === "object" && address ? address.port : 0}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
