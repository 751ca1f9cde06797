/**
 * The islands bundle (app/islands/main.ts): the only JavaScript a page without hydration
 * loads (app/features/shell/islands.ts). Built before the app (`npm run build`) into
 * `dist/islands/` (React Router's build empties `build/`); the app build's `islands` plugin (vite.config.ts) copies its files into
 * `build/client/assets/` (precompressed with the rest) and gives the root layout the
 * entry's hashed URL. What the islands import on demand (the API client for a rating,
 * the tracking SDK, the image-domain probe) becomes chunks of their own, loaded when used.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const webDir = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  publicDir: false,
  mode: "production",
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  build: {
    outDir: path.join(webDir, "dist/islands"),
    emptyOutDir: true,
    target: "es2022",
    manifest: true,
    // The islands' own chunks load on demand; nothing to preload ahead of them.
    modulePreload: false,
    rolldownOptions: {
      input: { islands: path.join(webDir, "app/islands/main.ts") },
      output: {
        entryFileNames: "assets/[name]-[hash].js",
        chunkFileNames: "assets/islands-[name]-[hash].js",
        assetFileNames: "assets/islands-[name]-[hash][extname]",
      },
    },
  },
});
