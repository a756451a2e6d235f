package tuning

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sgemmTimes are SGEMM tunes of the H100 (and of the H200, the same
// count of multiprocessors) with every time they measured
// (`bench -tune -tune-raw`): 27 grid shapes and 26 between them per
// layout (38 and 31 in session 34's), and the bounds SelectAligned meets
// on them (see TestSelectOnMeasuredTimes). Session 3 of 2026-11-23 measured 7
// instances per layout; the second tune of session 13 of 2026-11-24 the
// 18 of the table then; session 17's last tune (2026-11-25) and session
// 18's two (2026-11-26) the 19 of the table, session 20's 19-21, session
// 21's 22-24, session 22's the same 22-24 with other fill splits and
// session 23's with the mbarrier ring and session 24's with the fill
// splits counting their reduction (2026-11-27), and session 25's, those
// times with the small tiles' fill splits measured beside them, the
// committed one (kernels/tuning/); and the H200's, in sessions 33-35, 37,
// 38, 43 and 44.
var sgemmTimes = []struct {
	path string
	// Worst picks between the grid shapes and left out of the grid, and
	// the shapes over 5% of the four layouts together.
	maxBetween, maxLOO         float64
	maxOverBetween, maxOverLOO int
	// tailPlan38: the tail-splitting instances (tc) ran kgen::tail_plan as
	// session 38 left it, which TailPlan follows; in the older files they
	// ran an earlier plan, and their times are left out (oldTail).
	tailPlan38 bool
}{
	// Between: 1.358x nn, 1.180x nt, 1.118x tn, 1.111x tt (5, 6, 3, 2 over
	// 5%); leave-one-out: 1.268, 1.054, 1.566, 1.552 (4, 1, 4, 4). Before
	// the timing models (flops per ms interpolated): 1.207, 1.196, 1.546,
	// 1.515 (17 over); 1.599, 1.548, 1.635, 1.567 (36 over).
	{"../../bench/results/h100-2026-11-23-session3-tune-sgemm-raw.json.gz", 1.37, 1.58, 17, 14, false},
	// Between: 1.315x nn, 1.264x nt, 1.130x tn, 1.066x tt (5, 5, 4, 1);
	// leave-one-out: 1.442, 1.237, 1.190, 1.471 (3, 3, 3, 3). Before: 1.200,
	// 1.152, 1.434, 1.645 (17 over); 1.659, 1.668, 1.557, 1.637 (36 over).
	{"../../bench/results/h100-2026-11-24-session13-tune-sgemm-2-raw.json.gz", 1.33, 1.49, 16, 13, false},
	// Between: 1.421x nn, 1.593x nt, 1.365x tn, 1.327x tt (7, 5, 10, 6);
	// leave-one-out: 1.454, 1.360, 2.091, 1.258 (4, 4, 3, 3). Session 17's
	// final tune: 19 instances per layout, the cluster-summed split and
	// the element path for odd shapes among them.
	{"../../bench/results/h100-2026-11-25-session17-call11-tune-sgemm-raw.json.gz", 1.60, 2.10, 29, 15, false},
	// Between: 1.369x nn, 1.561x nt, 1.373x tn, 1.417x tt (4, 9, 7, 9);
	// leave-one-out: 1.385, 1.513, 1.583, 1.676 (3, 4, 3, 3). Session 18's
	// first tune (seed 19): the same 19 instances per layout, k-contiguous
	// operands with unaligned rows on the fast path.
	{"../../bench/results/h100-2026-11-26-session18-call3-tune-sgemm-raw.json.gz", 1.57, 1.69, 29, 13, false},
	// Between: 1.150x nn, 1.231x nt, 1.183x tn, 1.188x tt (4, 6, 2, 3);
	// leave-one-out: 1.294, 1.339, 1.563, 1.299 (3, 4, 3, 3). Session 18's
	// second tune (seed 20), the committed table: edge tiles moved inside
	// the matrix.
	{"../../bench/results/h100-2026-11-26-session18-call6-tune-sgemm-raw.json.gz", 1.24, 1.57, 15, 13, false},
	// Between: 1.228x nn, 1.268x nt, 1.366x tn, 1.316x tt (5, 6, 6, 4);
	// leave-one-out: 4.175, 1.405, 1.585, 1.408 (3, 4, 3, 3): without
	// 256^3, nn's 128^3 and 512^3 predict a tile that runs 256^3 4x
	// slower. Session 20's tune (seed 21), the committed table: 19
	// instances in tn, 21 in nn, nt and tt (two of them packing).
	{"../../bench/results/h100-2026-11-27-session20-call3-tune-sgemm-raw.json.gz", 1.37, 4.18, 21, 13, false},
	// Between: 1.574x nn, 1.257x nt, 1.124x tn, 1.555x tt (3, 6, 3, 6);
	// leave-one-out: 1.300, 1.192, 1.257, 1.207 (2, 5, 4, 3). Session 21's
	// tune (seed 22), the committed table: 22 instances in tn, 24 in nn,
	// nt and tt, three of them splitting to fill the GPU (split_count
	// fill), which win at 512x512x8192, 768^3 and most long-K shapes
	// between; nn and tt's worst, 362x362x11585, is one of those, where the
	// table keeps 64x64 in 128 splits. Those instances then split by
	// session 21's rule (one wave of resident blocks), which the model no
	// longer follows (FillSplits): replayed with session 22's, the worst
	// left out of the grid is 1.393x (nn 1536^3), 22 between over 5%; with
	// session 24's (the reduction counted) 1.583x between (nn
	// 263x3652x5855), 23 over.
	{"../../bench/results/h100-2026-11-27-session21-call4-tune-sgemm-raw.json.gz", 1.59, 1.40, 23, 14, false},
	// Between: 1.439x nn, 1.248x nt, 1.123x tn, 1.159x tt (8, 5, 4, 6);
	// leave-one-out: 1.372, 1.329, 1.632, 1.415 (2, 4, 3, 4). Session 22's
	// tune (seed 23), the committed table: the fill instances split by the
	// busiest multiprocessor (FillSplits), up to 32 splits. Their edge
	// kernels hold one block per multiprocessor in some layouts and two in
	// others (ptxas: 129 registers or fewer), which the model, fitted to
	// aligned shapes, does not know: 6 of the 23 misses between are one
	// fill instance picked over its twin in the other FFMA order. Session
	// 24's FillSplits, which counts the reduction, no longer follows these
	// times' splits at a few shapes: 24 over between (nn 9).
	{"../../bench/results/h100-2026-11-27-session22-call3-tune-sgemm-raw.json.gz", 1.45, 1.64, 24, 13, false},
	// Between: 1.370x nn, 1.312x nt, 1.128x tn, 1.289x tt (5, 5, 3, 4;
	// nn 6 before session 24's FillSplits); leave-one-out: 1.615, 1.509,
	// 2.192, 1.621 (2, 5, 2, 2; nn 3 and nt 4 before): without 256^3,
	// tn's 128^3 is predicted from shapes where larger tiles lead. Session
	// 23's tune (seed 24): the 128x128x16 tilings by column synchronise
	// their ring through mbarriers in nn, nt and tt (sync: mbarrier).
	{"../../bench/results/h100-2026-11-27-session23-call3-tune-sgemm-raw.json.gz", 1.38, 2.20, 17, 11, false},
	// Between: 1.150x nn, 1.156x nt, 1.145x tn, 1.140x tt (2, 4, 6, 6);
	// leave-one-out: 1.365, 1.404, 1.589, 1.588 (4, 3, 3, 3). Session 24's
	// tune (seed 25, other shapes between), the committed table: the fill
	// instances split by FillSplits with the reduction counted.
	{"../../bench/results/h100-2026-11-27-session24-call4-tune-sgemm-raw.json.gz", 1.16, 1.59, 18, 13, false},
	// Between: 1.470x nn, 1.553x nt, 1.515x tn, 1.272x tt (4, 9, 10,
	// 12), every worst at 362^3, where the 64x64 tile splitting to fill
	// the GPU ran 1.5x faster than any instance before and the table still
	// picks the 128x128 fill tile, as session 24's did; leave-one-out:
	// 1.402, 1.404, 1.589, 1.588 (5, 3, 5, 5). Session 25's table: the
	// fill splits of 128x64x8 and 64x64x8 measured alone (seed 25) and
	// merged with session 24's times of the others (bench -tune-merge).
	// Against session 24's table on these times its picks are 1% faster
	// at the grid shapes (geometric mean; 128x128x4096 1.16-1.29x), level
	// between them, 14 of 212 shapes over 5% faster and 5 over 5% slower.
	{"../../bench/results/h100-2026-11-27-session25-call3-tune-sgemm-merged-raw.json.gz", 1.56, 1.59, 35, 18, false},
	// Between: 1.185x nn (886^3), 1.316x nt, 1.375x tn, 1.210x tt (2, 6,
	// 4, 8); leave-one-out: 1.402, 1.404, 1.642, 1.588 (7, 2, 6, 6).
	// Session 26's table: the 64x64 tile with threads of 8x4 (split to
	// fill the GPU, and plain with mbarriers) measured alone (seed 25) and
	// merged with session 25's times of the others. 362^3, the worst
	// between shapes before in every layout, now takes the new fill tile.
	{"../../bench/results/h100-2026-11-27-session26-call5-tune-sgemm-merged-raw.json.gz", 1.38, 1.65, 20, 21, false},
	// Between: 1.214x nn, 1.303x nt, 1.375x tn, 1.274x tt (4, 8, 7, 10);
	// leave-one-out: 1.502, 1.439, 1.642, 1.588 (9, 4, 7, 7). Session 27's
	// table: the tiles that split their last wave in clusters (tail:
	// cluster) measured alone (seed 25) and merged with session 26's times
	// of the others. Against the same times without them, its picks
	// between the grid shapes run 1.1-2.7% faster (geometric mean by
	// layout; 5793^3 4-5%, 2896x2896x362 11-14%), none more than 3.1%
	// slower; more picks are over 5% of the fastest (29 against 20), most
	// against the new ones. Before the model knew the tail (TailPlan, its
	// plan's blocks an SM capped by the registers) it took the tail
	// instances at 1774^3, 1.19-1.23x slower than 2 splits in a cluster.
	// Since session 28 the model plans those tails as the launcher now
	// does (a block alone on its SM at half, no 5 or 7 splits), not as
	// these times were measured: between, 1.227x nn, 1.303x nt, 1.375x
	// tn, 1.387x tt (6, 10, 9, 12), leave-one-out 1.502, 1.439, 1.642,
	// 1.588 (8, 4, 8, 7). Since session 34 a tail instance whose plan
	// does not split the shape's tail takes its twin's prediction
	// (Predictor.twins): tt 14 over, 39 in all, as these tails were not
	// planned as the model plans them.
	{"../../bench/results/h100-2026-11-27-session27-call2-tune-sgemm-merged-raw.json.gz", 1.39, 1.65, 39, 27, false},
	// Between: 1.185x nn (886^3), 1.310x nt, 1.375x tn, 1.210x tt (5, 6,
	// 5, 8); leave-one-out: 1.516, 1.459, 1.642, 1.588 (8, 3, 7, 8).
	// Session 28's table: the tail instances, their tails planned with a
	// block alone on its SM at half a shared one's time and 2, 3, 4, 6 or
	// 8 splits, measured alone (seed 25) and merged with session 27's
	// times of the others. Since session 34's twin rule: tt 9 over, 25 in
	// all.
	{"../../bench/results/h100-2026-11-27-session28-call3-tune-sgemm-merged-raw.json.gz", 1.38, 1.65, 25, 26, false},
	// Between: 1.185x nn (886^3), 1.310x nt, 1.375x tn, 1.210x tt (5, 6,
	// 6, 8); leave-one-out: 1.516, 1.459, 1.642, 1.588 (8, 6, 10, 7).
	// Session 29's table: the stream-K instances (tail: stream, the model's
	// StreamPlan) measured alone (seed 25) and merged with session 28's
	// times of the others. Since session 34's twin rule: 1.316x nt, tn 5
	// and tt 9 over (25), leave-one-out tn 9 (30).
	{"../../bench/results/h100-2026-11-27-session29-call8-tune-sgemm-merged-raw.json.gz", 1.38, 1.65, 25, 30, false},
	// Between: 1.265x nn, 1.626x nt, 1.405x tn, 1.646x tt (5, 7, 7, 6),
	// the worst three at 362^3 as on session 25's H100 times;
	// leave-one-out: 1.581, 1.569, 1.499, 1.531 (8, 8, 10, 8). The H200
	// (132 multiprocessors too): session 33's tune, its first
	// kernels/tuning/nvidia-h200.yaml, measured a layout at a time
	// (tools/device/gpu-tune-parts.sh, seed 25; nn with -iters 20, the
	// others with 10). Since session 34's twin rule: nt 5 and tn 6 over
	// (22), leave-one-out tn 9 (33). Since session 38 leaves its tail
	// instances out (oldTail): 1.671x nn at 362^3 and 23 over, with the
	// model before session 38's TailPlan as with it.
	{"../../bench/results/h200-2026-11-28-session33-call4-tune-sgemm-merged-raw.json.gz", 1.68, 1.59, 23, 33, false},
	// Between: 1.244x nn (156^3), 1.305x nt, 1.114x tn, 1.157x tt (the
	// three at 7934x1157x140; 4, 4, 1, 6 over 5% of 31 each);
	// leave-one-out: 1.513, 1.468, 1.782, 1.624 (4, 6, 7, 7 of 38). The
	// H200's session 34 tune, its table that session: the full
	// grid with 11 shapes that are not aligned (38), so that each
	// instance's cost of misalignment is measured near small, skinny and
	// long-K shapes too, not only at 1023^3 and 4097^3 (seed 25, -iters 10,
	// a layout at a time). Session 33's table, replayed on these times,
	// picks up to 1.40-1.78x of the fastest between the grid shapes (27
	// over 5%, TestTableOnOtherTimes).
	{"../../bench/results/h200-2026-11-28-session34-call3-tune-sgemm-merged-raw.json.gz", 1.31, 1.79, 15, 24, false},
	// Between: 1.244x nn (156^3), 1.305x nt, 1.114x tn, 1.157x tt (the
	// three at 7934x1157x140; 3, 4, 2, 6 over 5%); leave-one-out: 1.513,
	// 1.468, 1.782, 1.624 (4, 6, 7, 7). The H200's session 35 table, the
	// committed nvidia-h200.yaml: the 8x16 thread tiles (128x256, 256x128),
	// which since then store a C that takes no float4 stores through shared
	// memory (kgen::sgemm::store_c_staged), measured alone (seed 25, -iters
	// 10) and merged with session 34's times of the others. At the shapes
	// that are not aligned they ran 1.1-1.9x faster than in session 34's
	// times, yet seldom fastest: at 10 of the 276 shapes the fastest
	// instance is now one of them and 1.01-1.07x faster than session 34's
	// (tt 1279^3 1.066x, tn 1431x2479x506 1.062x).
	{"../../bench/results/h200-2026-11-28-session35-call3-tune-sgemm-merged-raw.json.gz", 1.31, 1.79, 15, 24, false},
	// Between: 1.099x nn (7934x1157x140), 1.863x nt (442x442x8191: the
	// tail-splitting tile, 0.19 ms where predicted 0.10, as in session 35's
	// times), 1.352x tn (442^3), 1.130x tt (156^3); 3, 6, 10, 7 over 5%;
	// leave-one-out: 1.511, 1.465, 1.527, 1.559 (5, 9, 9, 8). The H200's
	// session 37 table, the committed nvidia-h200.yaml: the whole grid
	// measured again (seed 25, -iters 10, a layout at a time) since the
	// edge kernels of threads 8 columns wide store a C of odd N by
	// store_c_shifted. Against session 35's times, at the 34 shapes of odd N
	// the fastest instance is 1.3% (nn), 1.6% (nt), 2.9% (tt) faster by
	// geometric mean, level in tn, where its 128x128 rows_zigzag kernel by
	// columns lost (it keeps store_c since: Config::kShiftedLoses; its times
	// here, and its packing instances', are of the shifted store).
	// Since session 38 leaves its tail instances out (oldTail): 1.099x,
	// 1.215x, 1.110x, 1.130x (20 over); leave-one-out 1.170, 1.281,
	// 1.527, 1.360 (23).
	{"../../bench/results/h200-2026-11-28-session37-call3-tune-sgemm-raw.json.gz", 1.87, 1.56, 26, 31, false},
	// Between: 1.101x nn (221^3), 1.215x nt (156^3), 1.110x tn
	// (466x2321x233), 1.130x tt (156^3); 3, 6, 6, 6 over 5% (21);
	// leave-one-out: 1.170, 1.281, 1.527, 1.360 (4, 7, 7, 7). The H200's
	// session 38 table (nvidia-h200.yaml until session 43): the tail-splitting
	// instances (tc) since kgen::tail_plan counts a round of clusters
	// alone where the GPU places it one block an SM, and tn's rows_zigzag
	// 128x128 kernel by columns and the instances that run it since it
	// keeps store_c (session 37), measured alone (seed 25, -iters 10) and
	// merged with session 37's times of the others. On the same times,
	// TailPlan before session 38 left 30 over 5% out of the grid, 1.212x
	// nn at worst, and scored the same between the grid shapes.
	{"../../bench/results/h200-2026-11-29-session38-call4-tune-sgemm-merged-raw.json.gz", 1.22, 1.53, 21, 25, true},
	// Between: 1.213x nn (221^3), 1.215x nt (156^3), 1.211x tn
	// (6888x6888x156), 1.182x tt (6888x6888x156); 4, 8, 7, 7 over 5% (26);
	// leave-one-out: 1.170, 1.261, 1.527, 1.360 (4, 6, 5, 7). The H200's
	// session 43 table (nvidia-h200.yaml until session 44): the instances whose
	// kernels issue their copies late in a tile (Config::kCopyPlace: the
	// 8x16 thread tiles since session 43, the 128x128 tile by columns in
	// rows_zigzag and its tilings since session 42) measured alone (seed
	// 25, -iters 10) and merged with session 38's times of the others.
	{"../../bench/results/h200-2026-11-29-session43-call3-tune-sgemm-merged-raw.json.gz", 1.22, 1.53, 26, 22, true},
	// Between: as session 43's (4, 8, 7, 7 over 5%: 26); leave-one-out:
	// 1.170, 1.273, 1.527, 1.691 (tt 128^3; 5, 7, 5, 7). The H200's session
	// 44 table, the committed nvidia-h200.yaml: the split instances of the
	// 128x128 tile by columns in quads_zigzag (nn, nt, tt), whose copies go
	// late since session 43, measured alone (seed 25, -iters 10) and merged
	// with session 43's times of the others. They are now the fastest at
	// 1024^3 in nn and nt (k4) and tt (k32f).
	{"../../bench/results/h200-2026-11-29-session44-call2-tune-sgemm-merged-raw.json.gz", 1.22, 1.70, 26, 24, true},
	// Between: 1.213x nn (221^3), 1.215x nt (156^3), 1.234x tn
	// (6888x6888x156), 1.182x tt (6888x6888x156); 4, 8, 9, 7 over 5% (28);
	// leave-one-out: 1.170, 1.217, 1.527, 1.375 (6, 7, 4, 8). The H200's
	// session 47 table, the committed nvidia-h200.yaml: the tilings of the
	// 128x128 tile by columns in quads_zigzag (new: its tail split in
	// clusters, tc, and by stream-K, ts), and tn's and tt's 256x128x16
	// tilings, whose shared rows are unpadded since session 46, measured
	// alone (seed 25, -iters 10) and merged with session 44's times of the
	// others. The picks at 1024^3: nt's the new tc, tn's and tt's the
	// unpadded 256x128 tile split to fill. The committed table leaves out
	// that tile's stream-K form (ts), measured here but the fastest at no
	// grid shape and not kept: its grids are tuning.GridOf of these times
	// without it (the same picks; between the grid shapes the same scores,
	// leave-one-out tn 5 over 5% instead of 4).
	{"../../bench/results/h200-2026-11-30-session47-call2-tune-sgemm-merged-raw.json.gz", 1.24, 1.53, 28, 25, true},
	// Between and leave-one-out: as session 47's. The H200's session 48
	// table (nvidia-h200.yaml until session 51): the 128x256x16 tile's instances
	// whose m/n-contiguous shared rows are unpadded since session 47 (tn and
	// tt whole and k4, the packing instances of nn, nt and tt) measured
	// alone (seed 25, -iters 10) and merged with session 47's times of the
	// others (without its stream-K form, no longer built). New picks: nn's
	// packing k4 at 4096^3, 1024x1024x8192 and 128x8192x8192 (there 3.8%
	// faster than the old pick), tn's whole tile at 2048^3, 4096^3 and
	// 2048x2048x512 and its k4 at 1024x1024x8192 and 128x8192x8192 (3.9%).
	{"../../bench/results/h200-2026-11-30-session48-call1-tune-sgemm-merged-raw.json.gz", 1.24, 1.53, 28, 25, true},
	// Between: 1.213x nn (221^3), 1.215x nt (156^3), 1.110x tn
	// (466x2321x233), 1.130x tt (156^3); 3, 7, 7, 6 over 5% (23);
	// leave-one-out: 1.170, 1.217, 1.527, 1.375 (6, 7, 4, 8), as session
	// 48's. The H200's session 51 table, the committed nvidia-h200.yaml:
	// tn's 128x128x16 tilings by columns in rows and quads_zigzag order,
	// which since session 50 run the aligned shapes that are not whole
	// tiles by kEdgesMoved, measured alone (seed 25, -iters 10) and merged
	// with session 48's times of the others. At 6888x6888x156, tn's worst
	// before (1.234x), the pick, the quads_zigzag tile, is now 1.008x the
	// fastest (its tail split in clusters) and 1.11x cuBLAS in the bench.
	// Before Predict charged the packing instances their edge kernel at
	// aligned shapes that are not whole tiles (session 51), nn, nt and tt
	// picked one there, 1.17-1.19x the fastest (tt's worst, 1.182x; 26
	// over 5%).
	{"../../bench/results/h200-2026-11-30-session51-call2-tune-sgemm-merged-raw.json.gz", 1.22, 1.53, 24, 25, true},
	// Between: 1.167x nn (221^3), 1.215x nt (156^3), 1.078x tn
	// (293x1799x416), 1.130x tt (156^3); 4, 5, 8, 6 over 5% of 41 each
	// (23); leave-one-out: 1.170, 1.217, 1.493, 1.375 (7, 7, 6, 10 of 48).
	// The H200's session 52 table, the committed nvidia-h200.yaml: session
	// 51's times with the ragged grid (10 aligned shapes that are not whole
	// tiles, and 10 between them) measured for every instance (seed 25,
	// -iters 10, nn and nt then tn and tt) and added (bench -tune-add).
	// Without the edge classes (MinEdgePoints) the same times score 25
	// over between the grid shapes and 40 left out (tn 1.105x at 1504^3).
	{"../../bench/results/h200-2026-11-30-session52-call1-tune-sgemm-added-raw.json.gz", 1.22, 1.50, 23, 30, true},
	// Between: 1.094x nn (2289^3), 1.147x nt (7934x1157x140), 1.166x tn
	// (221^3), 1.170x tt (221^3); 2, 3, 11, 7 over 5% of 41 each (23);
	// leave-one-out: 1.170, 1.174, 1.493, 1.197 (6, 3, 9, 9 of 48). The
	// H200's session 53 table, the committed nvidia-h200.yaml: the 64x64x16
	// tile split to fill the GPU (new) measured alone (seed 25, -iters 10)
	// and merged with session 52's times of the others, and a 64x128x16
	// tile measured in the same run left out (not kept; the file is that
	// run's -tune-raw without it). Against session 52's table on these
	// times the picks run 0.3-2.5% faster by geometric mean between the grid
	// shapes (221^3 nn 1.48x, nt 1.32x; 4870x156x1722 nn 0.97x the worst).
	{"../../bench/results/h200-2026-11-30-session53-call5-tune-sgemm-raw.json.gz", 1.22, 1.50, 23, 27, true},
	// Between: 1.094x nn (2289^3), 1.147x nt (7934x1157x140), 1.166x tn
	// (156^3), 1.079x tt (2289^3); 3, 4, 10, 5 over 5% of 41 each (22);
	// leave-one-out: 1.217, 1.174, 1.369, 1.250 (6, 4, 9, 10 of 48). The
	// H200's session 55 table, the committed nvidia-h200.yaml: the 32x128x16
	// tile split to fill the GPU (new) measured alone (seed 25) and merged
	// with session 53's times of the others.
	{"../../bench/results/h200-2026-11-30-session55-callA-tune-sgemm-merged-raw.json.gz", 1.22, 1.50, 23, 30, true},
	// Between: 1.155x nn (293x1799x416), 1.150x nt (293x1799x416), 1.375x
	// tn (466x2321x233: the 64x128x16 tile split to fill, new, where the
	// 64x64x16 one runs 1.375x faster), 1.175x tt (4870x156x1722); 4, 5,
	// 9, 6 over 5% of 41 each (24); leave-one-out: 1.217, 1.174, 1.369,
	// 1.250 (8, 5, 9, 11 of 48). Session 56's tune: the 64x128x16 and
	// 128x32x16 tiles split to fill (new) measured alone (seed 25) and
	// merged with session 55's times of the others, the 128x32 tile's nn
	// and nt instances left out (the committed table does not hold them).
	// This is a table of the grid's shapes alone; the committed one holds
	// every shape (TestEveryShapeTableLeavingEachOut).
	{"../../bench/results/h200-2026-12-01-session56-callA-tune-sgemm-table-raw.json.gz", 1.38, 1.50, 24, 33, true},
}

// TestEveryShapeTableLeavingEachOut scores session 56's tune as bench
// -tune scores a table since then: each shape it measured, the grid's and
// those between, picked by a table of all the others. Left out, 57 of the
// 356 problems get a pick over 5% of the fastest, the worst 1.375x (tn
// 466x2321x233, as with the grid's shapes alone: its neighbours do not
// predict it; in the committed table it is measured). The bounds are what
// it scores.
func TestEveryShapeTableLeavingEachOut(t *testing.T) {
	raw := loadRaw(t, sessionFiftySix)
	var all tally
	for _, l := range []string{"nn", "nt", "tn", "tt"} {
		pts := layoutPoints(raw, l, true)
		require.Len(t, pts, 89, l)
		var one tally
		for i, p := range pts {
			g := GridOf(append(slices.Clone(pts[:i]), pts[i+1:]...))
			g.SMs = h100SMs
			name, ok := SelectAligned(&g, p.M, p.N, p.K, 4)
			require.True(t, ok)
			one.add(p, name)
			all.add(p, name)
		}
		t.Logf("%s: %v, %.4f by geometric mean", l, one, one.geoMean())
	}
	t.Logf("every layout: %v, %.4f by geometric mean", all, all.geoMean())
	assert.LessOrEqual(t, all.over, 57)
	assert.LessOrEqual(t, all.worst, 1.38)
}

// oldTail leaves p's tail-splitting instances out: times of a tail plan
// that TailPlan no longer follows. Until session 38 a round of clusters
// with no whole tiles before it counted as sharing multiprocessors, and the
// last of several as alone where its blocks were 132 or fewer; on an H200
// a single round of up to 15 clusters of 8 runs alone (0.147 of the whole
// tiles' time), 16 of them share (0.272), and the plan now splits those 6
// ways (kgen::tail_plan). The figures in the comments of sgemmTimes before
// session 38's were of every instance, these too, where not said.
func oldTail(p RawPoint) {
	for name := range p.Ms {
		if TilingOf(name).Tail {
			delete(p.Ms, name)
		}
	}
}

// h100SMs is the multiprocessor count of the GPU the raw times are of.
const h100SMs = 132

// loadRaw reads path, skipping the test where the checkout lacks it.
func loadRaw(t *testing.T, path string) []RawPoint {
	t.Helper()
	pts, err := ReadRaw(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s: not in this checkout", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	return pts
}

// tally is how a selector did on a set of shapes: its worst ratio of the
// picked instance's time to the fastest's (tools/bench's score: +Inf for a
// pick not measured there), the shapes over 5%, and the shapes whose two
// fastest instances are within 3% of each other, where the measurement's
// noise decides as much as the kernels do.
type tally struct {
	worst     float64
	at        string
	over, n   int
	coinToss  int
	overNoisy int     // of over, the shapes that are also coin tosses
	logs      float64 // the sum of the ratios' logs (geoMean)
}

// geoMean is the geometric mean of the ratios.
func (a tally) geoMean() float64 { return math.Exp(a.logs / float64(a.n)) }

func (a *tally) add(p RawPoint, pick string) {
	best, second := math.Inf(1), math.Inf(1)
	for _, ms := range p.Ms {
		if ms < best {
			best, second = ms, best
		} else if ms < second {
			second = ms
		}
	}
	ratio := math.Inf(1)
	if ms, ok := p.Ms[pick]; ok {
		ratio = ms / best
	}
	a.n++
	a.logs += math.Log(ratio)
	noisy := second/best < 1.03
	if noisy {
		a.coinToss++
	}
	if ratio > 1.05 {
		a.over++
		if noisy {
			a.overNoisy++
		}
	}
	if a.n == 1 || ratio > a.worst {
		a.worst, a.at = ratio, fmt.Sprintf("%dx%dx%d", p.M, p.N, p.K)
	}
}

func (a tally) String() string {
	return fmt.Sprintf("%.3fx at %-14s %2d of %d over 5%%", a.worst, a.at, a.over, a.n)
}

// layoutPoints is pts's SGEMM points in layout l; with every, all of them
// marked as the table's (as bench -tune writes a table since session 56),
// else as measured (a table of the grid's shapes alone, GridOf).
func layoutPoints(pts []RawPoint, l string, every bool) []RawPoint {
	var in []RawPoint
	for _, p := range pts {
		if p.Family == "sgemm" && p.Layout == l {
			p.Grid = p.Grid || every
			in = append(in, p)
		}
	}
	return in
}

// layoutPredictor is the predictor of a table of pts's SGEMM grid shapes
// in layout l (align 4, the f32 kernels' vector); with every, of all its
// shapes (layoutPoints).
func layoutPredictor(pts []RawPoint, l string, every bool) *Predictor {
	g := GridOf(layoutPoints(pts, l, every))
	g.SMs = h100SMs
	return NewPredictor(&g, 4)
}

// evalLayout scores SelectAligned (align 4, the f32 kernels' vector) on one
// layout's points: at the grid shapes, at the shapes between them, and at
// each grid shape predicted from a grid without it (leave-one-out), which
// the between shapes cannot show: whether the model only fits the shapes
// it was tuned against.
func evalLayout(pts []RawPoint) (grid, between, loo tally) {
	g := GridOf(pts)
	g.SMs = h100SMs
	for _, p := range pts {
		name, _ := SelectAligned(&g, p.M, p.N, p.K, 4)
		if p.Grid {
			grid.add(p, name)
		} else {
			between.add(p, name)
		}
	}
	for i, p := range pts {
		if !p.Grid {
			continue
		}
		rest := append(append([]RawPoint{}, pts[:i]...), pts[i+1:]...)
		h := GridOf(rest)
		h.SMs = h100SMs
		name, _ := SelectAligned(&h, p.M, p.N, p.K, 4)
		loo.add(p, name)
	}
	return grid, between, loo
}

// TestSelectOnMeasuredTimes replays the H100's SGEMM tunes offline: the
// table bench -tune builds from its grid shapes, scored against every time
// it measured. Issue 9 asks for picks within 5% of the fastest everywhere,
// which is not met; the bounds are a little above what SelectAligned
// reaches, so that a change that makes the worst pick worse, or more picks
// miss by 5%, fails here.
func TestSelectOnMeasuredTimes(t *testing.T) {
	for _, f := range sgemmTimes {
		t.Run(strings.TrimSuffix(filepath.Base(f.path), ".json.gz"), func(t *testing.T) {
			byLayout := map[string][]RawPoint{}
			for _, p := range loadRaw(t, f.path) {
				if p.Family == "sgemm" {
					if !f.tailPlan38 {
						oldTail(p)
					}
					byLayout[p.Layout] = append(byLayout[p.Layout], p)
				}
			}
			var report strings.Builder
			overBetween, overLOO := 0, 0
			for _, l := range []string{"nn", "nt", "tn", "tt"} {
				pts := byLayout[l]
				if len(pts) == 0 {
					t.Fatalf("%s: no sgemm %s times", f.path, l)
				}
				grid, between, loo := evalLayout(pts)
				fmt.Fprintf(&report, "%s grid    %v\n%s between %v (%d coin tosses, %d of them over)\n%s loo     %v (%d coin tosses, %d of them over)\n",
					l, grid, l, between, between.coinToss, between.overNoisy, l, loo, loo.coinToss, loo.overNoisy)
				overBetween += between.over
				overLOO += loo.over
				// The table keeps 4 significant digits (round4): at a grid
				// shape it picks the fastest to those, 1 + 5e-4 of the
				// fastest at worst (session 17, nn 640x2560x1280: two
				// instances 0.009% apart).
				if grid.worst > 1+5e-4 {
					t.Errorf("%s: grid shapes: worst pick %v, not the fastest to 4 digits", l, grid)
				}
				if between.worst > f.maxBetween {
					t.Errorf("%s: between shapes: worst pick %v, above %.2f", l, between, f.maxBetween)
				}
				if loo.worst > f.maxLOO {
					t.Errorf("%s: leave-one-out: worst pick %v, above %.2f", l, loo, f.maxLOO)
				}
			}
			if overBetween > f.maxOverBetween {
				t.Errorf("between shapes: %d picks over 5%%, above %d", overBetween, f.maxOverBetween)
			}
			if overLOO > f.maxOverLOO {
				t.Errorf("leave-one-out: %d picks over 5%%, above %d", overLOO, f.maxOverLOO)
			}
			t.Logf("SelectAligned on %s:\n%s", f.path, report.String())
		})
	}
}

// TestTableOnOtherTimes replays the H200's session 33 table (its grid had
// two shapes that are not aligned) and session 34's (eleven more) on the
// times session 34 measured between its grid shapes, which neither table
// holds: the grid that measures misalignment near small, skinny and
// long-K shapes picks better there, and this keeps it so.
func TestTableOnOtherTimes(t *testing.T) {
	old := loadRaw(t, "../../bench/results/h200-2026-11-28-session33-call4-tune-sgemm-merged-raw.json.gz")
	times := loadRaw(t, "../../bench/results/h200-2026-11-28-session34-call3-tune-sgemm-merged-raw.json.gz")
	var before, after tally
	for _, l := range []string{"nn", "nt", "tn", "tt"} {
		oldTable, newTable := layoutPredictor(old, l, false), layoutPredictor(times, l, false)
		for _, p := range times {
			if p.Family != "sgemm" || p.Layout != l || p.Grid {
				continue
			}
			name, _, _ := oldTable.Predict(p.M, p.N, p.K)
			before.add(p, name)
			name, _, _ = newTable.Predict(p.M, p.N, p.K)
			after.add(p, name)
		}
	}
	t.Logf("between session 34's grid shapes: session 33's table %v; session 34's %v", before, after)
	assert.Less(t, after.worst, before.worst)
	assert.Less(t, after.over, before.over)
}

// TestRaggedGridOnItsTimes replays session 51's H200 table and session 52's,
// which adds the ragged grid, on the aligned shapes between the ragged
// grid's that are not whole tiles (tuneBetween["ragged"] in tools/bench),
// which neither table holds: the table that measures the edge kernels
// picks faster there, by geometric mean and at worst.
func TestRaggedGridOnItsTimes(t *testing.T) {
	old := loadRaw(t, "../../bench/results/h200-2026-11-30-session51-call2-tune-sgemm-merged-raw.json.gz")
	times := loadRaw(t, "../../bench/results/h200-2026-11-30-session52-call1-tune-sgemm-added-raw.json.gz")
	before := map[[3]int]bool{}
	for _, p := range old {
		before[[3]int{p.M, p.N, p.K}] = true
	}
	var tallies [2]tally
	for _, l := range []string{"nn", "nt", "tn", "tt"} {
		tables := [2]*Predictor{layoutPredictor(old, l, false), layoutPredictor(times, l, false)}
		for _, p := range times {
			if p.Family != "sgemm" || p.Layout != l || p.Grid || before[[3]int{p.M, p.N, p.K}] {
				continue
			}
			for i, table := range tables {
				name, _, _ := table.Predict(p.M, p.N, p.K)
				tallies[i].add(p, name)
			}
		}
	}
	require.Equal(t, 40, tallies[1].n, "the ragged grid's 10 shapes between, 4 layouts")
	t.Logf("between the ragged grid's shapes: session 51's table %v, %.4f by geometric mean; session 52's %v, %.4f",
		tallies[0], tallies[0].geoMean(), tallies[1], tallies[1].geoMean())
	assert.Less(t, tallies[1].worst, tallies[0].worst)
	assert.LessOrEqual(t, tallies[1].over, tallies[0].over)
	assert.Less(t, tallies[1].geoMean(), tallies[0].geoMean())
}

// freshShapes are bench runs on an H200 (tools/device/gpu-dispatch.sh) of
// every SGEMM instance by name beside the engine's choice at shapes that no
// tune measured, in every layout, drawn by Python's random.Random(seed):
// unless said, 40 shapes, 24 with dimensions drawn log-uniformly from 128
// to 8192 (none of them aligned) and 16 of them rounded to multiples of 64,
// each at most 2^36 flops. Each with the table the engine then dispatched
// by (its raw times) and what that table scores there
// (TestTableOnFreshShapes).
var freshShapes = []struct {
	run, table string
	seed       int
	shapes     int // per layout
	// The bounds: the problems over 5% of the fastest and the worst pick.
	maxOver  int
	maxWorst float64
	// all: the table holds every shape of its tune, the grid's and those
	// between (bench -tune since session 56), not the grid's alone.
	all bool
}{
	// Session 54: session 53's table picks within 5% at 130 of 160 (over
	// 5%: 19 of the 96 not aligned, 11 of the 64 aligned). The worst, 1.844x
	// at tn 135x387x332, is a problem as fast as the launches are issued:
	// its pick ran 0.0107 ms as the engine's row and 0.0203 ms by name in
	// the same run. Of the 119 problems whose fastest instance takes 0.02 ms
	// or more, 17 are over 5%, the worst 1.400x (tn 4688x1415x192: the
	// 128x128 tile that splits its tail, predicted 0.076 ms, ran 0.106; the
	// fastest, the 64x64x16 tile split to fill, 0.075).
	{"../../bench/results/h200-2026-11-30-session54-call1-dispatch.json.gz", sessionFiftyThree, 54, 40, 30, 1.845, false},
	// Session 55, the 32x128x16 tile new: session 55's table picks within
	// 5% at 136 of 160, 1.019x by geometric mean, the worst 1.162x (tn
	// 186x6672x239); session 53's would have picked within 5% at 138
	// (1.018x), and its picks run as fast by geometric mean (the new
	// table's 0.999x): the new tile is the fastest at 6 of these problems
	// and picked at 9, where it runs 0.94-1.03x as fast as the pick before.
	// Its gains are at C of 129 to 192 rows with N and K in the thousands,
	// which these random shapes miss (h200-2026-11-30-session55.md).
	{"../../bench/results/h200-2026-11-30-session55-callB-dispatch.json.gz", sessionFiftyFive, 55, 40, 24, 1.163, false},
	// Session 55, the shapes the new tile is for: 24 with M log-uniform in
	// 129-256, N and K in 512-8192 (seed 5500), at most 2^36 flops. The
	// table picks within 5% at 84 of 96, 1.016x by geometric mean, the worst
	// 1.194x (tt 160x6243x978); session 53's would have at 71 (1.041x; the
	// worst 1.345x, nn 143x3812x3692). This table's picks run 1.043, 1.009,
	// 1.031 and 1.014x as fast as session 53's by geometric mean (nn, nt,
	// tn, tt), from 0.90x (tn 202x731x4205) to 1.35x (nn 143x3812x3692).
	{"../../bench/results/h200-2026-11-30-session55-callC-dispatch.json.gz", sessionFiftyFive, 5500, 24, 12, 1.195, false},
	// Session 56, the 64x128x16 and 128x32x16 tiles new and the table of
	// every shape its tune measured (in two bench runs of 20 shapes each,
	// one device call): it picks within 5% at 119 of 160, 1.040x by
	// geometric mean, the worst 1.429x (tn 871x5674x145, the 128x128 tile
	// splitting its tail, predicted 0.047 ms, ran 0.076); a table of the
	// same times at the grid's shapes alone would pick within 5% at 118
	// (1.039x), session 55's at 104 (1.047x). Most of the misses are
	// problems of 0.01 to 0.03 ms, many with K under 256. (The engine in
	// that run dispatched by the grid's shapes alone, with the 128x32 tile
	// in nn and nt too: the replay picks what it picked at 129 of 160;
	// h200-2026-12-01-session56.md.)
	{"../../bench/results/h200-2026-12-01-session56-callB-dispatch.json.gz", sessionFiftySix, 56, 40, 41, 1.43, true},
	// Session 57, the committed table (session 56's) on seed 57's shapes, in
	// two bench runs of 14 and 26 shapes on one machine: it picks within 5%
	// at 122 of 160, 1.030x by geometric mean, the worst 1.292x (tt
	// 1408x1856x384: the 64x128x16 tile, 0.070 ms, where the 128x32x16 one
	// ran 0.054). The engine tuned at each
	// problem over the table's first four (gemm.Engine.Tune) picked within 5%
	// at 151, 1.009x by geometric mean, the worst 1.149x (tn 384x1088x128)
	// (h200-2026-12-01-session57.md; TestTopOfTheRankingOnFreshShapes).
	{sessionFiftySevenFresh, sessionFiftySix, 57, 40, 38, 1.30, true},
	// Session 59, the 32x32x8 tile new, the 128x32x16 and 32x128x16 tiles
	// at 5 blocks an SM: call 2's table (the 17 new or changed instances
	// tuned, the others' times session 56's) on seed 59's 16 shapes: it
	// picks within 5% at 48 of 64, 1.041x by geometric mean, the worst
	// 1.741x (nt 110x3652x2080: the 128x128 tile splitting its tail,
	// predicted 0.057 ms, ran 0.108 on the element path that every tile of
	// a C shorter than the tile took; session 60's kEdgesShort).
	{sessionFiftyNineCall3, sessionFiftyNineCall2, 59, 16, 16, 1.742, true},
	// Session 59, the committed table (call 2's and 16 narrow shapes, call
	// 4) on seed 60's 12 shapes: within 5% at 29 of 48, 1.056x by geometric
	// mean, the worst 1.304x (tt 320x5454x172: the 128x128 tile of 2 stages
	// predicted 0.022 ms, ran 0.033).
	{sessionFiftyNineCall5, sessionFiftyNine, 60, 12, 19, 1.305, true},
	// Session 60, C shorter than a tile one way (gemm_kernel's kEdgesShort,
	// new): the committed table (session 59's, its 2 such shapes measured
	// again and 14 more added) on seed 6000's 12 shapes, one side 10 to 125
	// long, the others 474 to 7801: within 5% at 38 of 48, 1.038x by
	// geometric mean, the worst 1.314x (nn 13x820x474, a 0.01 ms problem);
	// session 59's table, on the same times, at 34 (1.061x, the worst
	// 1.392x).
	{sessionSixtyCall5, sessionSixty, 6000, 12, 10, 1.315, true},
	// Session 61, kEdgesShort's copies of rows past the matrix left out
	// (they had been zero-filled): the committed table (session 60's, its
	// 16 such shapes measured again) on seed 6100's 12 shapes, one side 9
	// to 127 long, the others 259 to 5480: within 5% at 30 of 48, 1.064x by
	// geometric mean, the worst 1.450x (nt 820x18x430: the 64x64x8 tile,
	// where the 64x64x16 one ran 0.69x its time). Session 60's table, on the
	// same times: at 32 (1.060x), the same worst.
	{sessionSixtyOneCall5, sessionSixtyOne, 6100, 12, 18, 1.451, true},
	// Session 62, the committed table (session 61's) on seed 6200's 12
	// shapes, one side 138 to 254 long (where the 256x128 tiles' C is
	// shorter than a tile), the others 267 to 4529: within 5% at 27 of 48,
	// 1.057x by geometric mean, the worst 1.401x (tn 319x191x267, a 0.01 ms
	// problem).
	{sessionSixtyTwoCall1, sessionSixtyOne, 6200, 12, 21, 1.402, true},
	// Session 62, the 8-warp split-to-fill tiles' short copies a loop
	// (Config::kShortLoop) and the table's 52 shapes with a side under 256
	// measured again (call 3's table) on seed 6201's 12 shapes, one side 22
	// to 82 long, most of them problems of 0.01 to 0.03 ms: within 5% at 13
	// of 48, 1.126x by geometric mean, the worst 1.534x (tt 37x582x1107).
	// Session 61's table, on the same times: at 13 (1.111x), the worst 1.308x.
	{sessionSixtyTwoCall3, sessionSixtyTwoC, 6201, 12, 35, 1.535, true},
	// Session 62, call 3's table with 24 shapes of a side 9 to 127 added
	// (seed 6202; committed) on seed 6203's 12 such shapes and seed 6200's
	// 12 again: within 5% at 62 of 96, 1.057x by geometric mean, the worst
	// 1.336x (nt 319x191x267); call 3's table on the same times at 64
	// (1.054x), session 61's at 63 (1.055x).
	{sessionSixtyTwoCall4, sessionSixtyTwo, 6203, 24, 34, 1.337, true},
}

const (
	sessionFiftyThree = "../../bench/results/h200-2026-11-30-session53-call5-tune-sgemm-raw.json.gz"
	sessionFiftyFive  = "../../bench/results/h200-2026-11-30-session55-callA-tune-sgemm-merged-raw.json.gz"
	sessionFiftySix   = "../../bench/results/h200-2026-12-01-session56-callA-tune-sgemm-table-raw.json.gz"
	// Bench runs of every instance by name at shapes no tune measured,
	// beside the engine and the engine tuned at each problem (bench
	// -engine-tune 4): seed 57's 40 shapes, and 12 where even the fastest
	// instance lost to cuBLAS in session 56 (6 of seed 56's, not aligned,
	// and their aligned neighbours).
	sessionFiftySevenFresh = "../../bench/results/h200-2026-12-01-session57-call2-fresh.json.gz"
	sessionFiftySevenProbe = "../../bench/results/h200-2026-12-01-session57-call1-probe.json.gz"
	// Session 59's tables (call 2: the new instances tuned over session
	// 56's grid; call 4: that and 16 narrow shapes, committed) and the bench
	// runs of every instance by name at shapes no tune measured with each
	// compiled in (calls 3 and 5).
	sessionFiftyNineCall2 = "../../bench/results/h200-2026-12-01-session59-call2-tune-sgemm-merged-raw.json.gz"
	sessionFiftyNine      = "../../bench/results/h200-2026-12-01-session59-call4-tune-sgemm-added-raw.json.gz"
	sessionFiftyNineCall3 = "../../bench/results/h200-2026-12-01-session59-call3-dispatch.json.gz"
	sessionFiftyNineCall5 = "../../bench/results/h200-2026-12-01-session59-call5-dispatch.json.gz"
	// Session 60's table (session 59's and 16 shapes of C shorter than a
	// tile one way) and the bench run of every instance at 12 such shapes no
	// tune measured with it compiled in.
	sessionSixty      = "../../bench/results/h200-2026-12-01-session60-call5-tune-sgemm-added-raw.json.gz"
	sessionSixtyCall5 = "../../bench/results/h200-2026-12-01-session60-call5-dispatch.json.gz"
	// Session 61's table (session 60's, its 16 shapes of C shorter than a
	// tile measured again with the kEdgesShort kernels changed) and the
	// bench run of every instance at 12 such shapes with it compiled in.
	sessionSixtyOne      = "../../bench/results/h200-2026-12-02-session61-call5-tune-sgemm-added-raw.json.gz"
	sessionSixtyOneCall5 = "../../bench/results/h200-2026-12-02-session61-call5-dispatch.json.gz"
	// Session 62's tables (call 3: session 61's with its 52 shapes of a
	// side under 256 measured again, the 8-warp split-to-fill tiles' short
	// kernels changed; call 4: that and 24 shapes of a side 9 to 127,
	// committed) and the bench runs of every instance at shapes no tune
	// measured (call 1 with session 61's table compiled in, calls 3 and 4
	// with their own).
	sessionSixtyTwoC     = "../../bench/results/h200-2026-12-02-session62-call3-tune-sgemm-merged-raw.json.gz"
	sessionSixtyTwo      = "../../bench/results/h200-2026-12-02-session62-call4-tune-sgemm-added-raw.json.gz"
	sessionSixtyTwoCall1 = "../../bench/results/h200-2026-12-02-session62-call1-dispatch.json.gz"
	sessionSixtyTwoCall3 = "../../bench/results/h200-2026-12-02-session62-call3-dispatch.json.gz"
	sessionSixtyTwoCall4 = "../../bench/results/h200-2026-12-02-session62-call4-dispatch.json.gz"
)

// benchPoints reads a bench -json report's GEMM rows as raw points: each
// instance's events time by name at each problem (not the engine's rows
// nor the reference's), none of them a grid shape, and the engine's pick
// at each problem (the report's Picks, the table's: not the tuned engine's),
// keyed by layout and shape.
func benchPoints(t *testing.T, path string) ([]RawPoint, map[string]string) {
	t.Helper()
	var rep struct {
		Rows []struct {
			Family, Kernel, Shape, Layout, Method string
			Ms                                    float64
		}
		Picks []struct {
			Shape, Layout, Engine string
			Tuned                 bool // the tuned engine's (bench -engine-tune), not the table's
		}
	}
	if err := ReadJSON(path, &rep); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s: not in this checkout", path)
	} else if err != nil {
		t.Fatal(err)
	}
	at := map[string]int{}
	var pts []RawPoint
	for _, r := range rep.Rows {
		if r.Method != "events" || strings.HasPrefix(r.Kernel, "engine") || strings.HasPrefix(r.Kernel, "cublas") {
			continue
		}
		key := r.Layout + " " + r.Shape
		i, ok := at[key]
		if !ok {
			p := RawPoint{Family: r.Family, Layout: r.Layout, Ms: map[string]float64{}}
			_, err := fmt.Sscanf(r.Shape, "%dx%dx%d", &p.M, &p.N, &p.K)
			require.NoError(t, err, r.Shape)
			i, at[key] = len(pts), len(pts)
			pts = append(pts, p)
		}
		pts[i].Ms[r.Kernel] = r.Ms
	}
	picks := map[string]string{}
	for _, p := range rep.Picks {
		if !p.Tuned {
			picks[p.Layout+" "+p.Shape] = p.Engine
		}
	}
	return pts, picks
}

// TestTableOnFreshShapes replays each of freshShapes' tables on its run's
// times. The timing model was refined from session 24 to 53 against the
// same shapes between the grid's (their midpoints, and random ones of seed
// 25), where session 53's table picks within 5% of the fastest at 141 of
// 164; these shapes are out of its sample. The bounds are what each table
// scores, so that a change to the model that makes them worse fails here.
// With the model of session 54 the replay picked what the engine had
// picked on the GPU at every problem (what the tuner evaluates is what the
// engine runs); it logs how many it still does.
func TestTableOnFreshShapes(t *testing.T) {
	for _, f := range freshShapes {
		t.Run(fmt.Sprintf("seed%d", f.seed), func(t *testing.T) {
			table := loadRaw(t, f.table)
			fresh, picked := benchPoints(t, f.run)
			var all tally
			same := 0
			for _, l := range []string{"nn", "nt", "tn", "tt"} {
				pr := layoutPredictor(table, l, f.all)
				var one tally
				for _, p := range fresh {
					if p.Layout != l {
						continue
					}
					name, _, ok := pr.Predict(p.M, p.N, p.K)
					require.True(t, ok)
					if picked[fmt.Sprintf("%s %dx%dx%d", l, p.M, p.N, p.K)] == name {
						same++
					}
					one.add(p, name)
					all.add(p, name)
				}
				require.Equal(t, f.shapes, one.n, l)
				t.Logf("%s: %v, %.4f by geometric mean", l, one, one.geoMean())
			}
			t.Logf("every layout: %v, %.4f by geometric mean; the engine's pick on the GPU at %d", all, all.geoMean(), same)
			assert.LessOrEqual(t, all.over, f.maxOver)
			assert.LessOrEqual(t, all.worst, f.maxWorst)
		})
	}
}

// TestTopOfTheRankingOnFreshShapes replays what gemm.Engine.Tune chooses
// from: the instances the table predicts fastest (Predictor.Ranking), the
// fastest of them as the bench timed them, on the runs of every instance
// at shapes no tune measured, with the committed table (session 56's). The
// fastest of the table's first four is within 5% of the fastest instance
// far more often than the first alone; the bounds are what each count
// scores. (On the GPU, in the run of seed 57, the engine tuned over its
// table's first four picked within 5% at 151 of 160 problems, the table
// alone at 122: tools/bench's -engine-tune.)
func TestTopOfTheRankingOnFreshShapes(t *testing.T) {
	table := loadRaw(t, sessionFiftySix)
	var fresh []RawPoint
	for _, run := range []string{freshShapes[3].run, sessionFiftySevenFresh, sessionFiftySevenProbe} {
		pts, _ := benchPoints(t, run)
		fresh = append(fresh, pts...)
	}
	for _, bound := range []struct {
		top, maxOver int
		maxGeoMean   float64
	}{{1, 98, 1.039}, {2, 59, 1.022}, {4, 18, 1.008}} {
		var all tally
		for _, l := range []string{"nn", "nt", "tn", "tt"} {
			pr := layoutPredictor(table, l, true)
			for _, p := range fresh {
				if p.Layout != l {
					continue
				}
				ranking := pr.Ranking(p.M, p.N, p.K)
				require.NotEmpty(t, ranking)
				fastest, fastestMs := "", math.Inf(1)
				for _, r := range ranking[:min(bound.top, len(ranking))] {
					if ms, ok := p.Ms[r.Name]; ok && ms < fastestMs {
						fastest, fastestMs = r.Name, ms
					}
				}
				all.add(p, fastest)
			}
		}
		t.Logf("the fastest of the first %d: %v, %.4f by geometric mean", bound.top, all, all.geoMean())
		assert.Equal(t, 368, all.n, "problems: 40 + 40 + 12 shapes, 4 layouts")
		assert.LessOrEqual(t, all.over, bound.maxOver, "top %d", bound.top)
		assert.LessOrEqual(t, all.geoMean(), bound.maxGeoMean, "top %d", bound.top)
	}
}
