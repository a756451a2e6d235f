// Package ir holds the generator's intermediate representation: plain data
// types describing kernel instances, with no templates and no maps of any.
// Emitters only print an *ir.Module; they never read the spec.
package ir
