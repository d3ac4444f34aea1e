/**
 * The stop hook's filing chunk: the entry `scripts/bundle_hooks.ts` bundles into
 * `stop-filing.js`, beside the stop bundle (`bundles/` in a checkout, `hooks/` in the release
 * tree). The stop bundle loads it only when a turn files, nudges or remakes the stale record, so an
 * idle turn never reads it; such a turn then reads one module of JavaScript instead of the filing
 * code's TypeScript modules from `src/` (`bundle_stop.ts` says why the copies are safe).
 *
 * @module
 */

import * as autoMemorySync from "../automemory/sync.ts";
import * as provenance from "../format/provenance.ts";
import * as afterFiling from "../export/after_filing.ts";
import * as coordination from "../filing/coordination.ts";
import * as head from "../git/head.ts";
import * as libraryLock from "../filing/library_lock.ts";
import * as nested from "../filing/nested.ts";
import * as nudgeReason from "../filing/nudge_reason.ts";
import * as overShare from "../filing/over_share.ts";
import * as provenanceStamp from "../filing/provenance_stamp.ts";
import * as route from "../filing/route.ts";
import * as stopSummary from "../filing/stop_summary.ts";
import * as subagentNote from "../filing/subagent_note.ts";
import * as bashTouches from "../shell/bash_touches.ts";
import * as staleExtend from "../git/stale_extend.ts";
import * as staleRefresh from "../git/stale_refresh.ts";
import { provideBundled } from "../core/load_later.ts";

/** What this chunk holds, by path under `src/` (`stop_filing_modules.ts` lists the same). */
export const MODULES: Readonly<Record<string, unknown>> = {
  "automemory/sync.ts": autoMemorySync,
  "format/provenance.ts": provenance,
  "export/after_filing.ts": afterFiling,
  "filing/coordination.ts": coordination,
  "git/head.ts": head,
  "filing/library_lock.ts": libraryLock,
  "filing/nested.ts": nested,
  "filing/nudge_reason.ts": nudgeReason,
  "filing/over_share.ts": overShare,
  "filing/provenance_stamp.ts": provenanceStamp,
  "filing/route.ts": route,
  "filing/stop_summary.ts": stopSummary,
  "filing/subagent_note.ts": subagentNote,
  "shell/bash_touches.ts": bashTouches,
  "git/stale_extend.ts": staleExtend,
  "git/stale_refresh.ts": staleRefresh,
};

// the chunk's own copy of loadLater: what these modules load later comes from here too
provideBundled(MODULES);
