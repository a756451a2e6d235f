package gputest

import (
	"errors"
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
