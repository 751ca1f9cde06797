import { z } from "zod";

// NOTE: the site's CSP has no 'unsafe-eval'. zod 4 probes `new Function` when it builds
// an object schema (to decide whether to compile a fast parser); in the browser that
// probe is refused and reported as a CSP violation. This module is the first import of
// the package entry, so it runs before any schema here is built. On the server the JIT
// stays on: it is allowed there and it is what makes ingest validation fast.
if ("document" in globalThis) z.config({ jitless: true });
