#!/usr/bin/env bash
# Session 23's device call for bench/harness/sgemm_variants.cu -DSET=6 (the
# cp.async ring synchronised by mbarriers): builds it for every layout in
# parallel (ptxas's register counts in $OUT/ptxas-ring-<layout>.txt), then
# runs each build twice at 2048, 4096 and 8192; the results go to
# $OUT/ring-<layout>.txt. sgemm_set.sh does the work.
#   bash bench/harness/sgemm_ring.sh   (from the repository root, on the GPU machine)
SET=6 NAME=ring LAYOUTS="2 0 1 3" SIZES=2048,4096,8192 ROUNDS=2 exec bash bench/harness/sgemm_set.sh
