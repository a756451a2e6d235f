package main

import (
	"path/filepath"
	"testing"
)

func TestOutputPathFollowsBazelRun(t *testing.T) {
	t.Setenv("BUILD_WORKING_DIRECTORY", "/home/u/src")
	if got := outputPath("out.json"); got != filepath.Join("/home/u/src", "out.json") {
		t.Errorf("relative path under bazel run: %q", got)
	}
	if got := outputPath("/tmp/out.json"); got != "/tmp/out.json" {
		t.Errorf("absolute path under bazel run: %q", got)
	}
	t.Setenv("BUILD_WORKING_DIRECTORY", "")
	if got := outputPath("out.json"); got != "out.json" {
		t.Errorf("relative path without bazel run: %q", got)
	}
}
