// Package compile checks that the kernel library the build made holds every
// instance of the spec for every target arch: each launcher symbol is defined,
// and each object carries machine code for its arch (and PTX where asked).
// `make test` builds the library with nvcc before running this.
package compile

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/kgen-gpu/kgen/gen/ir"
	"github.com/kgen-gpu/kgen/gen/kgen"
)

const lib = "../../build/libkgen.a"

func module(t *testing.T) *ir.Module {
	t.Helper()
	m, err := kgen.Load("../..", "kernels/spec.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func needLib(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(lib); err != nil {
		t.Fatalf("%s is missing: build it with `make lib` (make test does): %v", lib, err)
	}
}

func TestEveryLauncherIsDefined(t *testing.T) {
	needLib(t)
	out, err := exec.Command("nm", "--defined-only", lib).Output()
	if err != nil {
		t.Fatalf("nm %s: %v", lib, err)
	}
	defined := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[1] == "T" {
			defined[f[2]] = true
		}
	}
	m := module(t)
	n := 0
	for _, in := range m.Instances {
		for _, a := range in.Archs {
			n++
			if !defined[in.Symbol(a)] {
				t.Errorf("%s: launcher %s is not defined in %s", in.Name, in.Symbol(a), lib)
			}
		}
	}
	if n == 0 {
		t.Fatal("the spec has no instances")
	}
	t.Logf("%d launchers defined", n)
}

func TestEveryObjectHasItsArchCode(t *testing.T) {
	needLib(t)
	if _, err := exec.LookPath("cuobjdump"); err != nil {
		t.Fatalf("cuobjdump not found (it ships with the CUDA toolkit): %v", err)
	}
	m := module(t)
	for _, target := range m.Targets {
		short := ir.Arches[target.Arch].Short
		cc := short[2:]
		for _, in := range m.InstancesFor(target.Arch) {
			obj := "../../build/" + short + "/" + in.Name + ".o"
			elf, err := exec.Command("cuobjdump", "-lelf", obj).CombinedOutput()
			if err != nil {
				t.Errorf("cuobjdump -lelf %s: %v\n%s", obj, err, elf)
				continue
			}
			if !strings.Contains(string(elf), "sm_"+cc) {
				t.Errorf("%s: no sm_%s machine code:\n%s", obj, cc, elf)
			}
			if target.PTX {
				ptx, err := exec.Command("cuobjdump", "-lptx", obj).CombinedOutput()
				if err != nil || !strings.Contains(string(ptx), "sm_"+cc) {
					t.Errorf("%s: target asks for PTX, none for compute_%s: %v\n%s", obj, cc, err, ptx)
				}
			}
		}
	}
}
