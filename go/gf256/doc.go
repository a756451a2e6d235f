// Package gf256 runs GF(2^8) matrix products on a GPU with kgen's generated
// kernels: out[r] = XOR over j of coeffs[r][j] * in[j], byte by byte, with
// the field of Reed-Solomon coding (polynomial 0x11d). Shards are byte ranges
// of device buffers of any alignment and any length.
//
// It is the device-resident layer under go/rs: a GPU pipeline whose data is
// already on the device calls it (or rs.Encoder's device methods) directly.
// Like go/gemm it never exits or panics without a GPU: New returns an error.
package gf256
