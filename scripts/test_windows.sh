#!/usr/bin/env bash
# Runs the whole test suite with the real Windows Deno (deno.exe from npm @deno/win32-x64, the
# runtime Windows users' binaries are built on) under Wine 10, and prints deno test's counts.
#
#   sudo bash scripts/test_windows.sh [deno test arguments, default: tests/ src/]
#   sudo bash scripts/test_windows.sh src/format/scratch_test.ts     # a subset while iterating
#
# Needs root (debootstrap, chroot, bind mounts) and network (Debian mirror, npm). On a fresh
# Debian/Ubuntu machine it installs what it needs: debootstrap, the mingw cross compiler and npm
# from the machine's apt sources; a Debian trixie chroot with Wine 10 (bookworm's Wine 8.0 cannot
# run deno.exe, and installing trixie's Wine on the host would replace its libc); deno.exe from
# npm. Everything lives in LIBRARIAN_WINE_DIR (default /var/tmp/librarian-wine, about 2.3 GB) and
# is reused by the next run: cold about 3 minutes plus the suite, warm only the suite.
#
# Test-only stand-ins, built or copied at run time from scripts/windows/ (never committed built):
# - sh.exe, compiled from sh_shim.c: Windows has no `sh`; it does what bin/librarian does for
#   `sh <launcher> args` (real Windows users run hooks under Git Bash or PowerShell);
# - wine_fixups.ts, a --preload: Wine's unlock returns a status real Windows does not.
# docs/windows.md says what this run proves and what it cannot.
#
# Mounts are made in a private mount namespace when the kernel allows one (they vanish with the
# process, even on SIGKILL) and are unmounted by an EXIT trap in any case; concurrent runs wait
# for each other (one Wine prefix). Exit status: deno test's; 2 when the run could not start.
set -euo pipefail
# One compound command: bash reads all of it before running, so editing this file meanwhile is safe.
{
export LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive

REPO=$(cd "$(dirname "$0")/.." && pwd -P)
W=${LIBRARIAN_WINE_DIR:-/var/tmp/librarian-wine}
R=$W/root
TIMEOUT=${LIBRARIAN_WINE_TIMEOUT:-1800}
DENO_VERSION=$(sed -nE 's/^export const DENO_VERSION = "([0-9.]+)";$/\1/p' "$REPO/scripts/build_plan.ts")
t0=$(date +%s)
step() { echo "== windows [$(($(date +%s) - t0))s] $*"; }
die() {
  echo "test_windows: $*" >&2
  exit 2
}

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot and bind mounts); run it with sudo"
[ -n "$DENO_VERSION" ] || die "no DENO_VERSION in scripts/build_plan.ts"

# A private mount namespace: the bind mounts below then cannot outlive this run.
if [ -z "${LIBRARIAN_WINE_NS:-}" ] && command -v unshare >/dev/null &&
  unshare --mount --propagation private true 2>/dev/null; then
  LIBRARIAN_WINE_NS=1 exec unshare --mount --propagation private bash "$0" "$@"
fi

mkdir -p "$W/bin"
exec 9>"$W/lock"
if ! flock -n 9; then
  echo "test_windows: another run uses $W; waiting for it"
  flock -w 1200 9 || die "$W stayed locked for 20 minutes"
fi

mounted_under() { awk -v r="$1" '$2 == r || index($2, r "/") == 1 { print $2 }' /proc/self/mounts; }
cleanup() {
  if [ -x "$R/usr/bin/wineserver" ] && mountpoint -q "$R/proc"; then
    chroot "$R" /usr/bin/env WINEPREFIX=/root/wineprefix wineserver -k 2>/dev/null || true
  fi
  # Innermost first (sort -r puts /a/b before /a).
  for p in $(mounted_under "$R" | sort -r); do umount "$p" 2>/dev/null || umount -l "$p" || true; done
}
# Long steps run in the background and are waited for, so a signal is handled at once (bash
# defers traps while a foreground command runs), and the step is stopped before the cleanup.
child=
run() {
  "$@" &
  child=$!
  local rc=0
  wait "$child" || rc=$?
  child=
  return "$rc"
}
on_signal() {
  [ -z "$child" ] || kill -TERM "$child" 2>/dev/null || true
  exit "$1"
}
trap cleanup EXIT
trap 'on_signal 130' INT
trap 'on_signal 143' TERM HUP
cleanup # whatever an earlier run killed with SIGKILL left behind (outside a namespace)

step "host packages"
need=()
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v x86_64-w64-mingw32-gcc >/dev/null || need+=(gcc-mingw-w64-x86-64-win32)
command -v npm >/dev/null || need+=(npm)
[ -f /usr/share/keyrings/debian-archive-keyring.gpg ] || need+=(debian-archive-keyring)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# The Debian mirror this machine's apt already uses (deb822 or one-line sources).
mirror() {
  local m
  m=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/*.sources 2>/dev/null |
    tr ' ' '\n' | grep -v -e security -e '^$' | grep -i debian | head -n 1 || true)
  [ -n "$m" ] || m=$(awk '$1 == "deb" && $3 !~ /security/ && $2 ~ /debian/ { print $2; exit }' \
    /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true)
  echo "${m:-http://deb.debian.org/debian}"
}

if [ ! -f "$R/.librarian-wine-ready" ]; then
  step "Debian trixie chroot with Wine 10 (first run only)"
  [ -z "$(mounted_under "$R")" ] || die "$R still has mounts; unmount them first"
  if [ ! -f "$R/.librarian-base-ready" ]; then
    rm -rf "$R"
    run debootstrap --variant=minbase trixie "$R" "$(mirror)" >/dev/null
    touch "$R/.librarian-base-ready"
  fi
fi
for d in proc dev sys; do mountpoint -q "$R/$d" || mount --bind "/$d" "$R/$d"; done
if [ ! -f "$R/.librarian-wine-ready" ]; then
  cp /etc/resolv.conf "$R/etc/"
  run chroot "$R" sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends wine64 wine >/dev/null 2>&1'
  touch "$R/.librarian-wine-ready"
fi

step "deno.exe $DENO_VERSION (npm @deno/win32-x64), sh.exe from scripts/windows/sh_shim.c"
if [ "$(cat "$W/bin/deno.version" 2>/dev/null)" != "$DENO_VERSION" ]; then
  rm -rf "$W/dl" && mkdir -p "$W/dl"
  run sh -c 'cd "$1" && npm pack -q "$2" >/dev/null && tar xzf ./*.tgz' _ "$W/dl" \
    "@deno/win32-x64@$DENO_VERSION"
  mv "$W/dl/package/deno.exe" "$W/bin/deno.exe"
  echo "$DENO_VERSION" >"$W/bin/deno.version"
  rm -rf "$W/dl"
fi
x86_64-w64-mingw32-gcc -O2 -municode -o "$W/bin/sh.exe" "$REPO/scripts/windows/sh_shim.c"
# LIBRARIAN_WINE_FIXUPS=0 runs without the unlock preload: every unlock then throws, as a real
# lock-release failure would (the stop hook must still report and lose nothing).
if [ "${LIBRARIAN_WINE_FIXUPS:-1}" = 0 ]; then
  rm -f "$W/bin/wine_fixups.ts"
else
  cp "$REPO/scripts/windows/wine_fixups.ts" "$W/bin/"
fi
# deno.exe's own certificate store: this machine's CAs (a TLS-intercepting proxy's, if any).
[ -f /etc/ssl/certs/ca-certificates.crt ] && cp /etc/ssl/certs/ca-certificates.crt "$W/bin/ca.crt"

for p in "$W/bin" "$REPO"; do
  mkdir -p "$R$p"
  mountpoint -q "$R$p" || mount --bind "$p" "$R$p"
done
winpath() { printf 'Z:%s' "$1" | tr / '\\'; }
ca=()
[ -f "$W/bin/ca.crt" ] && ca=(DENO_CERT="$(winpath "$W/bin/ca.crt")")
# DENO_DISABLE_NODE_SHIM: otherwise every deno.exe start leaves a 97 MB copy of itself in DENO_DIR.
w() {
  chroot "$R" /usr/bin/env -i -C "$REPO" PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 NO_COLOR=1 \
    DENO_DISABLE_NODE_SHIM=1 LIBRARIAN_TEST_WINE=1 WINEPREFIX=/root/wineprefix WINEDEBUG=-all \
    WINEDLLOVERRIDES="mscoree,mshtml=" WINEPATH="$(winpath "$W/bin")" "${ca[@]}" "$@"
}
DENO=$(winpath "$W/bin/deno.exe")

if [ ! -f "$R/root/wineprefix/system.reg" ]; then
  step "wineboot (first run only)"
  run w wineboot -i >/dev/null 2>&1 || true
fi
# Temp folders of earlier runs (tests killed mid-way leave theirs).
rm -rf "$R"/root/wineprefix/drive_c/users/*/AppData/Local/Temp/librarian-* 2>/dev/null || true
w wine "$DENO" --version 2>/dev/null | head -n 1

step "deno cache (npm dependencies) under Wine"
run w wine "$DENO" cache --config deno.json src/main.ts tests/*.ts scripts/*.ts >/dev/null 2>&1 ||
  die "deno.exe could not cache the npm dependencies (network?)"

# The hooks' bundles, as `deno task test` builds them before its run: sh.exe runs a hook's bundle
# while it is fresh, as bin/librarian does (without them, each hook loads its TypeScript modules).
if command -v deno >/dev/null 2>&1; then
  step "hook bundles (deno task bundle)"
  (cd "$REPO" && deno run --allow-all scripts/bundle_hooks.ts --quiet) ||
    die "the hook bundles could not be built (deno task bundle says why)"
fi

[ $# -gt 0 ] || set -- tests/ src/
step "deno test under Wine: $*"
log=$W/test.log
set +e
flags=()
[ -f "$W/bin/wine_fixups.ts" ] && flags=(--preload "$(winpath "$W/bin/wine_fixups.ts")")
# Types are the same on every platform and `deno task check` checks them on the host: under Wine
# the suite runs without checking them again (LIBRARIAN_WINE_CHECK=1 checks them there too).
[ "${LIBRARIAN_WINE_CHECK:-0}" = 1 ] || flags+=(--no-check)
run w timeout --kill-after=30 "$TIMEOUT" wine "$DENO" test --allow-all --parallel "${flags[@]}" \
  "$@" >"$log" 2>&1
rc=$?
set -e
# Wine prints a native stack line per frame of a panic: noise, left in the log file only.
grep -a -v '^ *[0-9]*: <unknown>' "$log" | tr -d '\r' || true
[ "$rc" -ne 124 ] || echo "test_windows: the suite ran past ${TIMEOUT}s and was stopped"
step "done (deno test exit $rc; full log $log)"
exit "$rc"
}
