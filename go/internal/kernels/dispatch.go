package kernels

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnsupportedArch means no kernels were built for the device's arch or
// for one its binaries run on.
var ErrUnsupportedArch = errors.New("kgen: no kernels built for this GPU's arch")

// PickArch chooses, for a device of compute capability cc, the arch whose
// kernels run on it: the one built for cc exactly, else the newest of the
// same major version below it (machine code runs on later minor versions),
// else the newest target below it that carries PTX, which the driver
// compiles (jit). Every family dispatches through it.
func PickArch(cc int, targets []Target) (arch int, jit bool, err error) {
	best, bestPTX := 0, 0
	for _, t := range targets {
		if t.Arch == cc {
			return cc, false, nil
		}
		if t.Arch/10 == cc/10 && t.Arch < cc && t.Arch > best {
			best = t.Arch
		}
		if t.PTX && t.Arch < cc && t.Arch > bestPTX {
			bestPTX = t.Arch
		}
	}
	if best != 0 {
		return best, false, nil
	}
	if bestPTX != 0 {
		return bestPTX, true, nil
	}
	var built []string
	for _, t := range targets {
		built = append(built, fmt.Sprintf("sm_%d", t.Arch))
	}
	return 0, false, fmt.Errorf("%w: the device is sm_%d, kernels are built for %s", ErrUnsupportedArch, cc, strings.Join(built, ", "))
}

// Entry is any table entry: GEMM, GF256.
type Entry interface{ Base() Info }

// ForArch lists the entries of table built for arch, in table order.
func ForArch[T Entry](table []T, arch int) []T {
	var out []T
	for _, e := range table {
		if e.Base().Arch == arch {
			out = append(out, e)
		}
	}
	return out
}

// Named finds the entry called name among entries.
func Named[T Entry](entries []T, name string) (T, bool) {
	for _, e := range entries {
		if e.Base().Name == name {
			return e, true
		}
	}
	var zero T
	return zero, false
}
