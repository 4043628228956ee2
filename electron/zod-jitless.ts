import { z } from "zod";

// The window's CSP forbids eval. Zod probes `new Function` once to decide whether to compile fast
// parsers, which the CSP reports as a violation; jitless mode never probes. Imported first by
// the preload so it runs before the contract's schemas are built.
z.config({ jitless: true });
