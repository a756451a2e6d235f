#!/usr/bin/env bash
# A GPU's whole dispatch table (bench -tune, full grid) measured in parts,
# for when the build and the whole tune do not fit one device call: each
# part is one family's instances of one layout (PARTS, e.g. "sgemm:nn
# sgemm:nt hgemm:nn"), merged with that family's earlier parts (bench
# -tune-merge) into one table. Parts run while the call has time left for
# them (BUDGET seconds from its start; a part is expected to take as long as
# the longest so far, PART_S before the first). What is done stays in
# /tmp/tune-parts on the machine, so the next call on the same warm machine
# goes on from there; on a fresh machine, FROM (a folder holding what a call
# returned: done.txt, raw.tar, the table) is where it goes on from.
# TUNE_FLAGS go to each bench -tune (e.g. -iters 10, to fit more parts in
# a call). Once every part is done, FIGURES (bench flags), if set, runs the
# bench with the table compiled in (kgen). Results in $OUT: device.txt,
# done.txt, the table (<gpu>.yaml), raw.tar (each family's -tune-raw,
# gzipped), tune-logs.tar.gz, and figures.{txt,json}.
#   source .devicecarry/setup.sh && PARTS="sgemm:nn sgemm:nt sgemm:tn sgemm:tt" \
#     SEED=25 FIGURES="-families sgemm -sizes 1024,2048" bash tools/device/gpu-tune-parts.sh
set -uo pipefail
: "${PARTS:?PARTS: family:layout parts of the tune, in order}"
SEED=${SEED:-25} TUNE_FLAGS=${TUNE_FLAGS:-} BUDGET=${BUDGET:-560} PART_S=${PART_S:-170} FROM=${FROM:-} FIGURES=${FIGURES:-}
start=$(date +%s)
# shellcheck source=tools/device/lib.sh
source tools/device/lib.sh
state=/tmp/tune-parts
mkdir -p "$state/table" "$state/logs"
touch "$state/done.txt"
if [ -n "$FROM" ] && [ ! -s "$state/done.txt" ]; then
  cp "$FROM/done.txt" "$state/" && tar -C "$state" -xf "$FROM/raw.tar" && gunzip -f "$state"/*-raw.json.gz
  cp "$FROM"/*.yaml "$state/table/"
  echo "went on from $FROM: $(tr '\n' ' ' <"$state/done.txt")" | tee -a "$OUT/device.txt"
fi
device_build
go build -o /tmp/kbench ./tools/bench || exit 1
longest=$PART_S
for part in $PARTS; do
  family=${part%%:*} layout=${part##*:}
  grep -qx "$part" "$state/done.txt" && continue
  if [ $(($(date +%s) - start + longest)) -gt "$BUDGET" ]; then
    echo "stopped before $part: ${longest} s expected, $((BUDGET - $(date +%s) + start)) s left" | tee -a "$OUT/device.txt"
    break
  fi
  merge=()
  [ -f "$state/$family-raw.json" ] && merge=(-tune-merge "$state/$family-raw.json")
  t0=$(date +%s)
  # shellcheck disable=SC2086 # TUNE_FLAGS is a list of flags
  /tmp/kbench -tune $TUNE_FLAGS -tune-families "$family" -tune-seed "$SEED" -filter "^${family}_${layout}_" "${merge[@]}" \
    -tune-raw "$state/next-raw.json" -tune-out "$state/table" >"$state/logs/tune-$family-$layout.txt" 2>&1
  st=$?
  took=$(($(date +%s) - t0))
  echo "tune $part: exit $st in $took s; $(grep -E '^tune: worst' "$state/logs/tune-$family-$layout.txt")" | tee -a "$OUT/device.txt"
  # A part whose table was written (exit 1 also reports outputs unlike
  # cuBLAS's, left out of the table) counts as done.
  if [ -f "$state/next-raw.json" ]; then
    mv "$state/next-raw.json" "$state/$family-raw.json"
    echo "$part" >>"$state/done.txt"
  fi
  [ "$took" -gt "$longest" ] && longest=$took
done
cp "$state/done.txt" "$state"/table/*.yaml "$OUT/"
(cd "$state" && for f in ./*-raw.json; do gzip -c "$f" >"$f.gz"; done && tar cf "$OUT/raw.tar" ./*-raw.json.gz)
tar -C "$state/logs" -czf "$OUT/tune-logs.tar.gz" .
todo=0
for part in $PARTS; do grep -qx "$part" "$state/done.txt" || todo=$((todo + 1)); done
echo "parts left: $todo" | tee -a "$OUT/device.txt"
if [ "$todo" = 0 ] && [ -n "$FIGURES" ]; then
  cp "$state"/table/*.yaml kernels/tuning/ && go run ./gen/cmd/kgen >/dev/null && go build -o /tmp/kbench ./tools/bench || exit 1
  t0=$(date +%s)
  # shellcheck disable=SC2086 # FIGURES is a list of flags
  timeout $((BUDGET + 30 - t0 + start)) /tmp/kbench -no-progress $FIGURES -json "$OUT/figures.json" >"$OUT/figures.txt" 2>&1
  echo "figures: exit $? in $(($(date +%s) - t0)) s" | tee -a "$OUT/device.txt"
fi
