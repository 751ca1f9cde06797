import net from "node:net";

/** A TCP port on loopback that nothing listens on at the moment of asking. */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** `n` distinct free loopback ports (each held until all are chosen). */
export async function freePorts(n: number): Promise<number[]> {
  const probes = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const probe = net.createServer();
          probe.unref();
          probe.once("error", reject);
          probe.listen(0, "127.0.0.1", () => resolve(probe));
        }),
    ),
  );
  const ports = probes.map((p) => {
    const address = p.address();
    return typeof address === "object" && address !== null ? address.port : 0;
  });
  await Promise.all(probes.map((p) => new Promise((resolve) => p.close(resolve))));
  return ports;
}
