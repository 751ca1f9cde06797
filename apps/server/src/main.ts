import path from "node:path";
import { fileURLToPath } from "node:url";
import Fastify from "fastify";
import { fastifyReactRouter } from "@mcansh/remix-fastify";

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../web");
const app = Fastify({ logger: true });
app.get("/healthz", async () => ({ ok: true }));
await app.register(async (scope) => {
  await scope.register(fastifyReactRouter, {
    serverBuildPath: path.join(webDir, "build/server/index.js"),
    clientBuildDirectory: path.join(webDir, "build/client"),
  });
});
await app.listen({ port: Number(process.env.PORT ?? 3000), host: "0.0.0.0" });
