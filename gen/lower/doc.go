// Package lower resolves a validated spec into IR: each family expands into
// one ir.Instance per layout pair and tiling, with every derived number
// (threads, shared memory) computed here once, so that emitters only print.
package lower
