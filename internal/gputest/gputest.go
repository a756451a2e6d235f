// Package gputest is the one place that decides what a test does when it has
// no GPU: skip, visibly, with the reason, or, when KGEN_REQUIRE_GPU=1 is set
// (tools/device/gpu-run.sh sets it on GPU runners), fail. A runner whose GPU
// or driver went missing then fails instead of passing with every GPU test
// skipped.
//
// It imports nothing of kgen, so that go/cuda's own tests can use it.
package gputest

import (
	"errors"
	"fmt"
	"os"
	"testing"
)

// Env is the variable that makes a missing GPU a test failure.
const Env = "KGEN_REQUIRE_GPU"

// Required reports whether the environment requires a GPU (KGEN_REQUIRE_GPU=1).
func Required() bool { return os.Getenv(Env) == "1" }

// Need skips t, or fails it where a GPU is required, when err is not nil.
// err is why no GPU can be used, typically an error matching cuda.ErrNoDevice;
// callers fail other errors (a GPU that is there but broken) themselves.
func Need(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		Skip(t, "%v", err)
	}
}

// NeedDevice is Need for the error of opening a device: an error matching
// noDevice (cuda.ErrNoDevice, passed in so that this package imports
// nothing of kgen) means no GPU; any other means a GPU that is there but
// unusable, which fails t.
func NeedDevice(t testing.TB, err, noDevice error) {
	t.Helper()
	if err != nil && !errors.Is(err, noDevice) {
		t.Fatalf("GPU present but unusable: %v", err)
	}
	Need(t, err)
}

// Skip skips t because it has no GPU, saying why; where a GPU is required it
// fails t instead.
func Skip(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if Required() {
		t.Fatalf("no GPU, and %s=1 requires one: %s", Env, msg)
		return
	}
	t.Skipf("SKIP (no GPU; set %s=1 to make this a failure): %s", Env, msg)
}
