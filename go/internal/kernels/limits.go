package kernels

// #include "kernels/runtime/kgen_status.h"
import "C"

// GF256InlineShards is the most shards, inputs and outputs together, whose
// pointers and coefficients a GF(2^8) launch carries in its parameters when
// GF256Params has HostArrays; larger products pass device arrays.
const GF256InlineShards = C.KGEN_GF256_INLINE_SHARDS

// GF256FitsInline reports whether a product of rows outputs from k inputs
// fits a launch's parameters.
func GF256FitsInline(rows, k int) bool { return rows <= GF256InlineShards-k }
