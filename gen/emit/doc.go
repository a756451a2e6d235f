// Package emit holds what every emitter shares: the File they return and the
// header line that marks a file as generated. Each emitter is a subpackage
// with one entry point, Emit(*ir.Module) ([]emit.File, error).
package emit
