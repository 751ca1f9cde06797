/** Vitest globalSetup for the browser suite: one production build, made only when stale. */
import { ensureWebBuild } from "./web-build.ts";

export default function setup(): void {
  ensureWebBuild();
}
