import { z } from "zod";

// Zod probes `new Function("")` when it builds its first object schema, to see whether it may
// compile fast parsers. Our CSP forbids eval, so the probe is refused and reported as a CSP
// violation on every start. Jitless mode skips the probe; this module must be evaluated before
// any schema is built, so main.tsx imports it first.
z.config({ jitless: true });
