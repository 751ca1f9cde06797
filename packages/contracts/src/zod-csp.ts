import { config, z } from "zod";

// NOTE: the site's CSP has no 'unsafe-eval'. zod 4 probes `new Function` when it builds
// an object schema (to decide whether to compile a fast parser); in the browser that
// probe is refused and reported as a CSP violation. Every module here that builds a
// schema takes `z` from this one, so this runs before any schema is built, whichever
// modules a page's bundle keeps (package.json marks this module alone as having side
// effects, so the web build drops the contract modules and the schemas a page does not
// use). On the server the JIT stays on: it is allowed there and it is what makes ingest
// validation fast. `config`, not `z.config`: the web build treats `z.…` calls as pure
// (apps/web/vite.config.ts), which would drop this one.
if ("document" in globalThis) config({ jitless: true });

export { z };
