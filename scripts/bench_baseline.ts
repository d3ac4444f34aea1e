/**
 * The benchmark's baseline: a bare Deno start that reads hook JSON from stdin and parses it.
 * Every hook costs at least this much; the benchmark reports the hooks as multiples of it.
 *
 * @module
 */
const text = await new Response(Deno.stdin.readable).text();
JSON.parse(text);
