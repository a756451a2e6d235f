package cuda

import (
	"math"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestCopyRejectsPointerTypes compiles testdata/misuse, whose every copy
// passes a slice of something that is not a fixed-size number, and requires
// the compiler to reject each of them. It needs the go command and the source
// tree, so it skips (visibly) where either is missing, as in a Bazel sandbox.
func TestCopyRejectsPointerTypes(t *testing.T) {
	src, err := os.ReadFile("testdata/misuse/main.go")
	if err != nil {
		t.Skipf("SKIP (no source tree): %v", err)
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("SKIP (no go command): %v", err)
	}
	out, err := exec.Command(goCmd, "build", "-gcflags=-e", "-o", os.DevNull, "./testdata/misuse").CombinedOutput()
	if err == nil {
		t.Fatal("testdata/misuse compiled: host copies accept types that are not fixed-size numbers")
	}
	rejected := map[string]bool{}
	for _, m := range regexp.MustCompile(`main\.go:(\d+):\d+: .*does not satisfy (cuda\.)?Scalar`).FindAllStringSubmatch(string(out), -1) {
		rejected[m[1]] = true
	}
	for i, line := range strings.Split(string(src), "\n") {
		if strings.Contains(line, "// misuse:") && !rejected[strconv.Itoa(i+1)] {
			t.Errorf("line %d was not rejected for not satisfying Scalar: %s", i+1, strings.TrimSpace(line))
		}
	}
	if t.Failed() {
		t.Logf("go build output:\n%s", out)
	}
}

// TestPeakMemoryBandwidth checks the formula on the H100 SXM's reported
// properties (2619 MHz HBM3 on a 5120-bit bus: 3352 GB/s).
func TestPeakMemoryBandwidth(t *testing.T) {
	got := Info{MemoryClockKHz: 2619000, MemoryBusBits: 5120}.PeakMemoryGBs()
	if math.Abs(got-3352.32) > 0.01 {
		t.Errorf("PeakMemoryGBs = %v, want 3352.32", got)
	}
	if (Info{MemoryBusBits: 5120}).PeakMemoryGBs() != 0 {
		t.Error("no memory clock: the peak must be 0 (unknown)")
	}
}
