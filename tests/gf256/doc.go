// Package gf256test checks every GF(2^8) kernel instance on the GPU, bit
// for bit, against the pure-Go reference of go/rs (itself checked against
// klauspost/reedsolomon): odd lengths, misaligned shards, accumulation,
// guard bytes around every output. Without a GPU the tests skip, visibly.
package gf256test
