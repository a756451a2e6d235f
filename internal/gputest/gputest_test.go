package gputest

import (
	"errors"
	"fmt"
	"testing"
)

// recorder is a testing.TB that records how a test ended instead of ending it.
type recorder struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (r *recorder) Helper() {}
func (r *recorder) Skipf(format string, args ...any) {
	r.skipped = true
	r.msg = format
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = true
	r.msg = format
}

func TestNeedSkipsOrFails(t *testing.T) {
	noGPU := errors.New("cuda: no CUDA device available")
	for _, tc := range []struct {
		env           string
		err           error
		skip, failure bool
	}{
		{env: "", err: noGPU, skip: true},
		{env: "0", err: noGPU, skip: true},
		{env: "1", err: noGPU, failure: true},
		{env: "", err: nil},
		{env: "1", err: nil},
	} {
		t.Setenv(Env, tc.env)
		r := &recorder{TB: t}
		Need(r, tc.err)
		if r.skipped != tc.skip || r.failed != tc.failure {
			t.Errorf("%s=%q, err %v: skipped %v, failed %v; want %v, %v", Env, tc.env, tc.err, r.skipped, r.failed, tc.skip, tc.failure)
		}
		if Required() != (tc.env == "1") {
			t.Errorf("%s=%q: Required() = %v", Env, tc.env, Required())
		}
	}
}

func TestNeedDevice(t *testing.T) {
	noDevice := errors.New("no device")
	t.Setenv(Env, "")
	r := &recorder{TB: t}
	NeedDevice(r, fmt.Errorf("count: %w", noDevice), noDevice)
	if !r.skipped || r.failed {
		t.Errorf("no device: skipped %v, failed %v; want a skip", r.skipped, r.failed)
	}
	r = &recorder{TB: t}
	NeedDevice(r, errors.New("driver too old"), noDevice)
	if !r.failed {
		t.Error("a GPU that is there but unusable must fail the test")
	}
	r = &recorder{TB: t}
	NeedDevice(r, nil, noDevice)
	if r.skipped || r.failed {
		t.Error("a usable GPU neither skips nor fails")
	}
}
