import { z } from "zod";

/*
 * Runs in the browser before the dashboard hydrates. Zod compiles object parsers with `new Function`
 * where eval is allowed, and probes for that when the first object schema is built; under the
 * dashboard's CSP (no 'unsafe-eval') the probe is reported as a violation. The browser parses
 * without it: forms parse a handful of small objects.
 */
z.config({ jitless: true });
