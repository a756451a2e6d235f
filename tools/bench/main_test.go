package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/gemm"
)

// TestMain runs the command itself when the test binary is started with
// BENCH_TEST_MAIN=1, so that a test can check what a user sees (exit status,
// stderr) under go test and Bazel alike, without building the command.
func TestMain(m *testing.M) {
	if os.Getenv("BENCH_TEST_MAIN") == "1" {
		os.Args = append([]string{"bench"}, strings.Fields(os.Getenv("BENCH_TEST_ARGS"))...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func hasGPU() bool {
	n, err := cuda.Count()
	return err == nil && n > 0
}

// TestWithoutAGPUOneLineAndStatus1 runs the command where there is no GPU:
// it must print one line on stderr saying so, nothing on stdout, no stack
// trace, and exit with status 1. run itself must return errNoGPU.
func TestWithoutAGPUOneLineAndStatus1(t *testing.T) {
	if hasGPU() {
		t.Skip("SKIP: a GPU is present; this test is for machines without one (the bench would run for minutes)")
	}
	cfg, err := parseArgs(flag.NewFlagSet("bench", flag.ContinueOnError), nil)
	require.NoError(t, err)
	assert.ErrorIs(t, run(cfg, io.Discard), errNoGPU)

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "BENCH_TEST_MAIN=1", "BENCH_TEST_ARGS=-families sgemm -sizes 64")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "the command must fail: %v", err)
	assert.Equal(t, 1, exit.ExitCode())
	assert.Empty(t, stdout.String())
	lines := strings.Split(strings.TrimRight(stderr.String(), "\n"), "\n")
	assert.Len(t, lines, 1, "stderr: %q", stderr.String())
	assert.True(t, strings.HasPrefix(lines[0], "bench: no CUDA GPU found"), lines[0])
	assert.NotContains(t, stderr.String(), "goroutine")
}

// TestBadFlagsFailBeforeTheDevice: a malformed flag is an error from
// parseArgs, whatever the machine.
func TestBadFlagsFailBeforeTheDevice(t *testing.T) {
	for _, args := range [][]string{
		{"-shapes", "4x4"}, {"-shapes", "4x0x4"}, {"-shapes", "axbxc"}, {"-sizes", "0"},
		{"-layouts", "nx"}, {"-layouts", "nn,nn"}, {"-layouts", ""}, {"-families", "sgemm,dgemm"},
		{"-iters", "0"}, {"-filter", "("}, {"-sizes", "", "-families", "hgemm"}, {"extra"},
		{"-gf-sizes", "-1"}, {"-noise-k", "-1"}, {"-ladder-n", "-1"}, {"-engine-tune", "-2"},
	} {
		fs := flag.NewFlagSet("bench", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		_, err := parseArgs(fs, args)
		assert.Error(t, err, "%q", args)
	}
}

func TestParseArgsDefaultsAndShapes(t *testing.T) {
	cfg, err := parseArgs(flag.NewFlagSet("bench", flag.ContinueOnError), nil)
	require.NoError(t, err)
	assert.Equal(t, []shape{{1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096}, {8192, 8192, 8192}}, cfg.shapes)
	assert.Len(t, cfg.layouts, 4)
	assert.Equal(t, 4096, cfg.ladderN, "the ladder runs at 4096^3 by default")
	assert.False(t, cfg.rule, "the rule's picks are timed only when asked for")
	assert.Zero(t, cfg.engineTune, "no tuned engine unless asked for")
	for _, f := range families {
		assert.True(t, cfg.families[f], f)
	}

	cfg, err = parseArgs(flag.NewFlagSet("bench", flag.ContinueOnError),
		[]string{"-sizes", "35", "-shapes", "4096x4096x4096, 8192X128x8192", "-layouts", "tn,nn", "-families", "hgemm", "-rule", "-engine-tune", "3"})
	require.NoError(t, err)
	assert.True(t, cfg.rule)
	assert.Equal(t, 3, cfg.engineTune)
	assert.Equal(t, []shape{{35, 35, 35}, {4096, 4096, 4096}, {8192, 128, 8192}}, cfg.shapes)
	assert.Equal(t, [][2]gemm.Order{{gemm.ColMajor, gemm.RowMajor}, {gemm.RowMajor, gemm.RowMajor}}, cfg.layouts)
	assert.Equal(t, map[string]bool{"hgemm": true}, cfg.families)
	assert.Equal(t, "8192x128x8192", cfg.shapes[2].String())
	assert.Equal(t, 2*8192.0*128*8192, cfg.shapes[2].flops())

	cfg, err = parseArgs(flag.NewFlagSet("bench", flag.ContinueOnError), []string{"-sizes", "", "-shapes", "7x1x4097"})
	require.NoError(t, err)
	assert.Equal(t, []shape{{7, 1, 4097}}, cfg.shapes)

	// A shape named twice, by -sizes and -shapes or within one, runs once,
	// where it first appears.
	cfg, err = parseArgs(flag.NewFlagSet("bench", flag.ContinueOnError),
		[]string{"-sizes", "1024,2048,1024", "-shapes", "7x1x4097,1024x1024x1024,7x1x4097,1024x1024x7"})
	require.NoError(t, err)
	assert.Equal(t, []shape{{1024, 1024, 1024}, {2048, 2048, 2048}, {7, 1, 4097}, {1024, 1024, 7}}, cfg.shapes)
}

func TestLayoutNamesRoundTrip(t *testing.T) {
	ls, err := parseLayouts("nn,nt,tn,tt")
	require.NoError(t, err)
	var names []string
	for _, l := range ls {
		names = append(names, layoutName(l))
	}
	assert.Equal(t, []string{"nn", "nt", "tn", "tt"}, names)
}

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

// TestCompareFileIsReadBeforeTheDevice: a missing or row-less -compare file
// fails at once, GPU or not.
func TestCompareFileIsReadBeforeTheDevice(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "old.json")
	require.NoError(t, os.WriteFile(empty, []byte(`{"Results": []}`), 0o644))
	for _, path := range []string{filepath.Join(dir, "missing.json"), empty} {
		cfg, err := parseArgs(flag.NewFlagSet("bench", flag.ContinueOnError), []string{"-compare", path})
		require.NoError(t, err)
		err = run(cfg, io.Discard)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "-compare")
	}
}

func TestParseGemvShapes(t *testing.T) {
	got, err := parseGemvShapes("4096x4096, 11008x4096,1x7")
	if err != nil || len(got) != 3 || got[1] != [2]int{11008, 4096} || got[2] != [2]int{1, 7} {
		t.Fatalf("parseGemvShapes = %v, %v", got, err)
	}
	for _, bad := range []string{"4096", "0x5", "5x0", "4x4x4", "axb", ""} {
		if _, err := parseGemvShapes(bad); err == nil {
			t.Errorf("parseGemvShapes(%q) accepted", bad)
		}
	}
}

// The bench says how the engine chooses on this GPU: by its table, for the
// families the table holds, by the rule for the rest, or by the rule alone.
func TestDispatchLine(t *testing.T) {
	assert.Equal(t, `dispatch: no table for the NVIDIA A100; the engine picks GEMM kernels by its rule (bench -tune measures one: kernels/README.md, "Dispatch tables")`,
		dispatchLine("NVIDIA A100", "", nil, []string{"sgemm", "hgemm"}))
	assert.Equal(t, "dispatch: sgemm by the NVIDIA H200's table of 2026-11-28; hgemm, hgemmk by the engine's rule",
		dispatchLine("NVIDIA H200", "2026-11-28", []string{"sgemm"}, []string{"sgemm", "hgemm", "hgemmk"}))
	assert.Equal(t, "dispatch: sgemm, hgemm by the NVIDIA H100's table of 2026-11-27",
		dispatchLine("NVIDIA H100", "2026-11-27", []string{"sgemm", "hgemm"}, []string{"hgemm", "sgemm"}))
}

// parse is parseArgs on a fresh flag set that prints nothing.
func parse(args ...string) (config, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return parseArgs(fs, args)
}

// TestInstancesWhere: by default every instance is timed at 4096 only
// (GEMM 4096^3, HGEMV N = K = 4096), the engine's choice at every problem;
// -filter alone times the instances it picks everywhere; -instances says
// where, and one that names none of the run's problems is an error.
func TestInstancesWhere(t *testing.T) {
	cfg, err := parse()
	require.NoError(t, err)
	assert.True(t, cfg.instances.atGEMM(shape{4096, 4096, 4096}))
	assert.False(t, cfg.instances.atGEMM(shape{1024, 1024, 1024}))
	assert.False(t, cfg.instances.atGEMM(shape{4096, 4096, 128}))
	assert.True(t, cfg.instances.atGEMV(4096, 4096))
	assert.False(t, cfg.instances.atGEMV(11008, 4096))

	for _, args := range [][]string{{"-filter", "_b128x256"}, {"-instances", "all"}, {"-instances", " ALL "}} {
		cfg, err = parse(args...)
		require.NoError(t, err, "%q", args)
		assert.True(t, cfg.instances.atGEMM(shape{1024, 1024, 1024}), "%q", args)
		assert.True(t, cfg.instances.atGEMV(11008, 4096), "%q", args)
	}
	for _, args := range [][]string{{"-instances", "none"}, {"-filter", "_b128x256", "-instances", "none"}} {
		cfg, err = parse(args...)
		require.NoError(t, err, "%q", args)
		assert.False(t, cfg.instances.atGEMM(shape{4096, 4096, 4096}), "%q", args)
		assert.False(t, cfg.instances.atGEMV(4096, 4096), "%q", args)
	}

	cfg, err = parse("-sizes", "2048", "-shapes", "7x1x4097", "-gemv-shapes", "11008x4096,512x512",
		"-instances", "2048, 7x1x4097,11008X4096")
	require.NoError(t, err)
	assert.Equal(t, instanceSet{gemm: []shape{{2048, 2048, 2048}, {7, 1, 4097}}, gemv: [][2]int{{2048, 2048}, {11008, 4096}}}, cfg.instances)
	assert.False(t, cfg.instances.atGEMV(512, 512))

	// Named problems the run has, in any family that runs; the HGEMV shape
	// alone is enough when hgemv runs.
	_, err = parse("-families", "hgemv", "-instances", "11008x4096")
	assert.NoError(t, err)
	for _, args := range [][]string{
		{"-instances", "768"}, {"-families", "sgemm", "-instances", "11008x4096"},
		{"-families", "gf256", "-instances", "4096"}, {"-sizes", "1024", "-instances", "1024x1024x7"},
	} {
		_, err = parse(args...)
		if assert.Error(t, err, "%q", args) {
			assert.Contains(t, err.Error(), "names none of the run's problems", "%q", args)
		}
	}
	for _, bad := range []string{"0", "4x", "1x2x3x4", "a", "", "all,4096", "4096,none", "-1"} {
		_, err = parse("-instances", bad)
		if assert.Error(t, err, "%q", bad) {
			assert.Contains(t, err.Error(), "-instances", "%q", bad)
		}
	}
}

// TestGEMMInstancesFollowInstances: which built SGEMM instances a problem
// times by name.
func TestGEMMInstancesFollowInstances(t *testing.T) {
	var want, refs []string // every nn instance, then the ladder's
	built := gemm.Of(gemm.F32, gemm.BuiltInstances())
	for _, in := range built {
		if in.A == gemm.RowMajor && in.B == gemm.RowMajor {
			if in.Reference {
				refs = append(refs, in.Name)
			} else {
				want = append(want, in.Name)
			}
		}
	}
	require.NotEmpty(t, want)
	require.NotEmpty(t, refs)
	names := func(ins []gemm.Instance) []string {
		var out []string
		for _, in := range ins {
			out = append(out, in.Name)
		}
		return out
	}
	cfg, err := parse()
	require.NoError(t, err)
	n4096, n1024 := shape{4096, 4096, 4096}, shape{1024, 1024, 1024}
	assert.Empty(t, cfg.gemmInstances(built, n1024, nn, false), "the engine alone at 1024^3")
	assert.Equal(t, want, names(cfg.gemmInstances(built, n4096, nn, false)))
	assert.ElementsMatch(t, append(slices.Clone(want), refs...), names(cfg.gemmInstances(built, n4096, nn, true)),
		"the ladder's problem: its steps and every other instance")

	cfg, err = parse("-filter", "_b128x256")
	require.NoError(t, err)
	got := names(cfg.gemmInstances(built, n1024, nn, false))
	require.NotEmpty(t, got)
	for _, name := range got {
		assert.Contains(t, name, "_b128x256")
		assert.True(t, strings.HasPrefix(name, "sgemm_nn_"), name)
	}
}
