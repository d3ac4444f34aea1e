#!/bin/sh
# Smoke test of a staged plugin tree on the machine it runs on, the way Claude Code runs the hooks:
# a PreToolUse and a Stop event piped through `sh <plugin>/bin/librarian`, output and files checked.
#
#   sh scripts/smoke_release.sh <plugin-dir> [<expected version>]
#
# Needs only sh, sed, grep and mktemp (macOS, Linux, Git Bash on Windows); no Deno, no jq. The
# compiled binary must run: LIBRARIAN_FORCE_BINARY=1 forbids the source fallback (SMOKE_MODE=source
# smoke-tests source mode instead, with deno). Paths in the events are native, as Claude Code sends
# them (C:\... on Windows).
set -eu

plugin=$(cd "$1" && pwd)
version=${2:-}
launcher="$plugin/bin/librarian"

fail() {
  printf 'smoke: FAILED: %s\n' "$*" >&2
  exit 1
}

native() {
  if command -v cygpath >/dev/null 2>&1; then cygpath -w "$1"; else printf '%s' "$1"; fi
}

json_string() {
  printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g'
}

work=$(mktemp -d 2>/dev/null || mktemp -d -t librarian-smoke)
trap 'rm -rf "$work"' EXIT
project="$work/project"
mkdir -p "$project/_memory_library/src" "$project/src" "$work/home"
printf '# Patterns\n\n- smoke-context-7f3a: the smoke library was read\n' \
  >"$project/_memory_library/src/patterns.md"
printf 'export {};\n' >"$project/src/app.ts"
printf '## [TAG: src, type: edge]\n- smoke-learning-91c2: filed by the stop hook\n' \
  >"$project/_memory_library/.scratch.md"

log="$work/librarian.log"
HOME=$(native "$work/home")
USERPROFILE=$HOME
LIBRARIAN_LOG=$(native "$log")
CLAUDE_PROJECT_DIR=$(native "$project")
export HOME USERPROFILE LIBRARIAN_LOG CLAUDE_PROJECT_DIR
unset LIBRARIAN_PATH LIBRARIAN_FORCE_SOURCE LIBRARIAN_FORCE_BINARY CLAUDE_PLUGIN_ROOT \
  CLAUDE_CONFIG_DIR LIBRARIAN_STATE_DIR 2>/dev/null || true
if [ "${SMOKE_MODE:-binary}" = source ]; then
  LIBRARIAN_FORCE_SOURCE=1
  export LIBRARIAN_FORCE_SOURCE
else
  LIBRARIAN_FORCE_BINARY=1
  export LIBRARIAN_FORCE_BINARY
fi
cd "$project"

project_json=$(json_string "$CLAUDE_PROJECT_DIR")
file_json=$(json_string "$(native "$project/src/app.ts")")

if [ -n "$version" ]; then
  out=$(sh "$launcher" --version) || fail "--version exited with an error"
  [ "$out" = "librarian $version" ] || fail "--version printed '$out', expected 'librarian $version'"
fi

# 1. PreToolUse: the library file of the touched file's folder comes back as additionalContext.
event="{\"hook_event_name\":\"PreToolUse\",\"session_id\":\"smoke-1\",\"cwd\":\"$project_json\""
event="$event,\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":\"$file_json\"}}"
out=$(printf '%s' "$event" | sh "$launcher" inject) || fail "inject exited with an error"
case "$out" in
  '{"hookSpecificOutput":'*) ;;
  *) fail "inject printed: $out" ;;
esac
case "$out" in
  *smoke-context-7f3a*) ;;
  *) fail "inject did not send the library file: $out" ;;
esac
case "$out" in
  *permissionDecision*) fail "inject made a permission decision: $out" ;;
esac

# 2. Stop: the tagged learning moves from scratch into its file; the hook never blocks.
event="{\"hook_event_name\":\"Stop\",\"session_id\":\"smoke-1\",\"cwd\":\"$project_json\""
event="$event,\"stop_hook_active\":false}"
out=$(printf '%s' "$event" | sh "$launcher" stop) || fail "stop exited with an error"
case "$out" in
  '' | '{"systemMessage":'*) ;;
  *) fail "stop printed: $out" ;;
esac
case "$out" in
  *'"decision"'*) fail "stop blocked: $out" ;;
esac
grep -q smoke-learning-91c2 "$project/_memory_library/src/edge.md" 2>/dev/null ||
  fail "stop did not file the learning into _memory_library/src/edge.md"
if grep -q smoke-learning-91c2 "$project/_memory_library/.scratch.md"; then
  fail "the filed learning is still in scratch"
fi

# 3. Windows without Git Bash: the hooks `setup-hooks --shell powershell` writes, run the way Claude
# Code runs a "powershell" hook when PowerShell 7 is missing: Windows PowerShell 5.1 with
# -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command <command> (docs/windows.md).
ps=$(command -v powershell.exe 2>/dev/null || true)
if [ -n "$ps" ] && [ "${SMOKE_MODE:-binary}" = binary ]; then
  for exe in "$plugin"/bin/librarian-*.exe; do :; done
  [ -f "$exe" ] || fail "no librarian-*.exe in $plugin/bin"
  "$exe" setup-hooks --shell powershell --launcher "$(native "$exe")" >/dev/null ||
    fail "setup-hooks --shell powershell exited with an error"
  command=$(sed -n 's/^ *"command": "\(.* inject\)",\{0,1\}$/\1/p' \
    "$project/.claude/settings.local.json" | head -n 1)
  [ -n "$command" ] || fail "setup-hooks --shell powershell wrote no inject command"
  event="{\"hook_event_name\":\"PreToolUse\",\"session_id\":\"smoke-ps\",\"cwd\":\"$project_json\""
  event="$event,\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":\"$file_json\"}}"
  out=$(printf '%s' "$event" | MSYS2_ARG_CONV_EXCL='*' "$ps" -NoProfile -NonInteractive \
    -ExecutionPolicy Bypass -Command "$command") || fail "the PowerShell hook exited with an error"
  case "$out" in
    *smoke-context-7f3a*) echo "smoke: PowerShell hook ok: $command" ;;
    *) fail "the PowerShell hook ($command) did not send the library: $out" ;;
  esac
fi

# 4. Every run is in the log, with its timing.
grep -q '^[^ ]* inject ' "$log" || fail "no inject line in the log"
grep -q '^[^ ]* stop ' "$log" || fail "no stop line in the log"
sed 's/^/smoke: log: /' "$log"
echo "smoke: ok ($(uname -sm), $launcher)"
