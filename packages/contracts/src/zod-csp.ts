import { z } from "zod";

// NOTE: the site's CSP has no 'unsafe-eval'. zod 4 probes `new Function` on its first
// object parse to decide whether to compile fast paths; in the browser that probe is
// refused and reported as a CSP violation. This module is imported first by the
// package entry, before any schema parses, so the probe never runs.
z.config({ jitless: true });
