/**
 * The program as a test runs it when it sets a test-only knob (`LIBRARIAN_FAULT`, `LIBRARIAN_NOW`,
 * `LIBRARIAN_LOCK_TIMEOUT_MS`: `kind: "test"` in `src/core/env_vars.ts`). Only this entry calls
 * `enableTestKnobs`, so the knobs are read here and nowhere in what ships: not by the compiled
 * binary, the hook bundles, nor the source entries the launcher runs (`tests/env_vars_test.ts`).
 * {@link runLibrarian} (`tests/helpers.ts`) runs this module, with the launcher's permissions,
 * instead of the launcher whenever a run's environment names a knob.
 *
 * @module
 */

import { enableTestKnobs } from "../src/core/env.ts";
import { runProgram } from "../src/main.ts";

enableTestKnobs();
await runProgram(Deno.args);
