#!/usr/bin/env bash
# Packs .devicecarry/ for the device machine (../shared/device/pack.sh), then
# shrinks it so that it and the tracked tree fit the device tool's 64 MiB:
# the vendored modules go into one vendor.tar.xz (17 MB of files, under 1 MB
# packed) and the Go toolchain loses what no device build runs: GOROOT/src/cmd
# (the go command's own sources; the prebuilt tools stay), gofmt, the cover
# and preprofile tools (-cover and PGO builds), and since session 64 the race
# detector's and BoringCrypto's prebuilt objects (-race and
# GOEXPERIMENT=boringcrypto builds) and the trace viewer's pages, packed again
# by xz -9e (21.6 MB, 25.2 at the -6 of ../shared's pack: with the tracked
# tree at 41 MB on disk in session 60, the -6 pack no longer fit; at 45 MB in
# session 64 the 21.6 MB one did not). setup.sh then unpacks vendor/ on the
# device before it links it. Re-run it when go.mod changes. Usage, from the
# repository root:
#   bash tools/device/pack.sh
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
bash ../shared/device/pack.sh
dc=.devicecarry
if [ -d "$dc/vendor" ]; then
  tar -C "$dc" -cf - vendor | xz -T2 -6 >"$dc/vendor.tar.xz"
  rm -rf "$dc/vendor"
fi
# The toolchain's paths no device build needs: the one list both finds them
# in the archive and removes them. grep reads the whole listing (not -q), so
# that tar never dies of SIGPIPE under pipefail.
unused='^[^/]*/(src/cmd/|bin/gofmt$|pkg/tool/[^/]*/(cover|preprofile)$|src/runtime/race/.*\.syso$|src/crypto/internal/boring/syso/.*\.syso$|src/internal/trace/traceviewer/static/)'
drop=$(tar -tJf "$dc/go.tar.xz" | grep -E "$unused" || true)
if [ -n "$drop" ]; then
  tmp=$(mktemp -d)
  tar -C "$tmp" -xJf "$dc/go.tar.xz"
  (cd "$tmp" && printf '%s\n' "$drop" | xargs -d '\n' rm -rf)
  tar -C "$tmp" -cf - "$(ls "$tmp")" | xz -T2 -9e >"$dc/go.tar.xz"
  rm -rf "$tmp"
fi
unpack='[ -d "$_dc/vendor" ] || tar -C "$_dc" -xJf "$_dc/vendor.tar.xz"'
if ! grep -qF "$unpack" "$dc/setup.sh"; then
  awk -v line="$unpack" '/^ln -sfn "\$_dc\/vendor"/ { print line } { print }' "$dc/setup.sh" >"$dc/setup.sh.new"
  mv -f "$dc/setup.sh.new" "$dc/setup.sh"
fi
grep -qF "$unpack" "$dc/setup.sh" || { echo "pack: setup.sh has no vendor link line to unpack before" >&2; exit 1; }
echo "pack: $(du -sh "$dc" | cut -f1) in $dc, $(git ls-files -z | du -ch --files0-from=- | tail -1 | cut -f1) tracked" >&2
