// Package compile checks that the kernel libraries the build made hold every
// instance of the spec for every target arch: each launcher symbol is defined,
// and each object carries machine code for its arch alone (and PTX where
// asked). It needs no GPU.
//
// Under make, `make test` builds build/libkgen.a and the per-arch objects
// with nvcc first. Under Bazel, KGEN_KERNEL_LIBS lists the per-arch archives
// of //kernels/generated (runfile paths), which the go_test depends on.
package compile

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kgen-gpu/kgen/gen/ir"
	"github.com/kgen-gpu/kgen/gen/kgen"
)

const makeBuild = "../../build"

// unit is a file cuobjdump reads (an object, or an archive of them) and the
// instances it must hold.
type unit struct {
	path      string
	target    ir.Target
	instances int
}

func module(t *testing.T) *ir.Module {
	t.Helper()
	m, err := kgen.Load("../..", "kernels/spec.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// bazelLibs are the archives Bazel built, or nil under make.
func bazelLibs(t *testing.T) []string {
	t.Helper()
	list := os.Getenv("KGEN_KERNEL_LIBS")
	if list == "" {
		return nil
	}
	var out []string
	for _, p := range strings.Fields(list) {
		out = append(out, filepath.Join(os.Getenv("TEST_SRCDIR"), os.Getenv("TEST_WORKSPACE"), p))
	}
	return out
}

// archives are what nm reads for launcher symbols.
func archives(t *testing.T) []string {
	t.Helper()
	if libs := bazelLibs(t); libs != nil {
		return libs
	}
	lib := makeBuild + "/libkgen.a"
	if _, err := os.Stat(lib); err != nil {
		t.Fatalf("%s is missing: build it with `make lib` (make test does): %v", lib, err)
	}
	return []string{lib}
}

var libArchRe = regexp.MustCompile(`kernels_(sm\d+)\b`)

// units lists what cuobjdump checks: under make one object per instance and
// arch; under Bazel each per-arch archive.
func units(t *testing.T, m *ir.Module) []unit {
	t.Helper()
	short := map[string]ir.Target{}
	for _, tg := range m.Targets {
		short[ir.Arches[tg.Arch].Short] = tg
	}
	var out []unit
	if libs := bazelLibs(t); libs != nil {
		for _, lib := range libs {
			a := libArchRe.FindStringSubmatch(filepath.Base(lib))
			if a == nil {
				t.Fatalf("%s: not a per-arch kernel library (kernels_smNN)", lib)
			}
			tg, ok := short[a[1]]
			if !ok {
				t.Fatalf("%s: arch %s is not a spec target", lib, a[1])
			}
			out = append(out, unit{lib, tg, len(m.InstancesFor(tg.Arch))})
		}
		return out
	}
	for _, tg := range m.Targets {
		for _, in := range m.InstancesFor(tg.Arch) {
			out = append(out, unit{makeBuild + "/" + ir.Arches[tg.Arch].Short + "/" + in.Name + ".o", tg, 1})
		}
	}
	return out
}

func TestEveryLauncherIsDefined(t *testing.T) {
	defined := map[string]bool{}
	for _, lib := range archives(t) {
		out, err := exec.Command("nm", "--defined-only", lib).Output()
		if err != nil {
			t.Fatalf("nm %s: %v", lib, err)
		}
		for _, line := range strings.Split(string(out), "\n") {
			if f := strings.Fields(line); len(f) == 3 && f[1] == "T" {
				defined[f[2]] = true
			}
		}
	}
	m := module(t)
	n := 0
	for _, in := range m.Instances {
		for _, a := range in.Archs {
			n++
			if !defined[in.Symbol(a)] {
				t.Errorf("%s: launcher %s is not defined in %v", in.Name, in.Symbol(a), archives(t))
			}
		}
	}
	if n == 0 {
		t.Fatal("the spec has no instances")
	}
	t.Logf("%d launchers defined", n)
}

// cuobjdump finds the tool on PATH, else in $CUDA_PATH/bin or
// /usr/local/cuda/bin (Bazel's strict PATH has neither).
func cuobjdump(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("cuobjdump"); err == nil {
		return p
	}
	for _, dir := range []string{os.Getenv("CUDA_PATH"), "/usr/local/cuda"} {
		if p := filepath.Join(dir, "bin", "cuobjdump"); dir != "" {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	t.Fatal("cuobjdump not found on PATH, in $CUDA_PATH/bin or /usr/local/cuda/bin (it ships with the CUDA toolkit)")
	return ""
}

var smRe = regexp.MustCompile(`sm_\d+a?`)

func TestEveryObjectHasItsArchCode(t *testing.T) {
	tool := cuobjdump(t)
	m := module(t)
	us := units(t, m)
	if len(us) == 0 {
		t.Fatal("nothing to check")
	}
	for _, u := range us {
		want := "sm_" + ir.Arches[u.target.Arch].Short[2:]
		elf, err := exec.Command(tool, "-lelf", u.path).CombinedOutput()
		if err != nil {
			t.Errorf("cuobjdump -lelf %s: %v\n%s", u.path, err, elf)
			continue
		}
		cubins := 0
		for _, line := range strings.Split(string(elf), "\n") {
			for _, sm := range smRe.FindAllString(line, -1) {
				if sm != want {
					t.Errorf("%s: machine code for %s, built for %s alone:\n%s", u.path, sm, want, line)
				}
			}
			if strings.Contains(line, want) {
				cubins++
			}
		}
		if cubins < u.instances {
			t.Errorf("%s: %d %s cubins for %d instances:\n%s", u.path, cubins, want, u.instances, elf)
		}
		if u.target.PTX {
			ptx, err := exec.Command(tool, "-lptx", u.path).CombinedOutput()
			if err != nil || !strings.Contains(string(ptx), want) {
				t.Errorf("%s: target asks for PTX, none for compute_%s: %v\n%s", u.path, want[3:], err, ptx)
			}
		}
	}
}
