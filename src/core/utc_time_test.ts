/**
 * core/utc_time: the log's time stamp, written without `Date.prototype.toISOString`, must read
 * exactly as `toISOString` writes it.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { utcIsoTime } from "./utc_time.ts";

const YEAR_0 = Date.parse("0000-01-01T00:00:00.000Z");
const YEAR_10000 = Date.UTC(10000, 0, 1);

Deno.test("utcIsoTime writes any moment from year 0 to 9999 as toISOString does", () => {
  fc.assert(
    fc.property(fc.integer({ min: YEAR_0, max: YEAR_10000 - 1 }), (ms) => {
      assert.equal(utcIsoTime(ms), new Date(ms).toISOString());
    }),
    { numRuns: 20_000 },
  );
});

Deno.test("utcIsoTime is exact at the edges of days, months, leap days and centuries", () => {
  const edges = [
    Date.UTC(1970, 0, 1),
    Date.UTC(2000, 1, 29, 12),
    Date.UTC(2100, 1, 28, 23, 59, 59, 999),
    Date.UTC(2100, 2, 1),
    Date.UTC(1600, 1, 29),
    Date.UTC(2026, 11, 31, 23, 59, 59, 999),
    Date.UTC(9999, 11, 31, 23, 59, 59, 999),
  ];
  for (const moment of edges) {
    for (const ms of [moment - 1, moment, moment + 1]) {
      assert.equal(utcIsoTime(ms), new Date(ms).toISOString(), String(ms));
    }
  }
});

Deno.test("utcIsoTime leaves times outside years 0 to 9999, and fractions, to Date", () => {
  for (const ms of [YEAR_0 - 1, YEAR_10000, Date.UTC(-50, 0, 1), 1.5]) {
    assert.equal(utcIsoTime(ms), new Date(ms).toISOString());
  }
});
