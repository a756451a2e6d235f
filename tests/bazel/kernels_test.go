package bazel

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kgen-gpu/kgen/gen/ir"
	"github.com/kgen-gpu/kgen/gen/kgen"
)

var (
	archsAttrRe  = regexp.MustCompile(`(?s)\barchs\s*=\s*\[(.*?)\]`)
	definesRe    = regexp.MustCompile(`(?s)\blocal_defines\s*=\s*\[(.*?)\]`)
	srcsAttrRe   = regexp.MustCompile(`(?s)\bsrcs\s*=\s*\[(.*?)\]`)
	cudaLibRe    = regexp.MustCompile(`(?ms)^cuda_library\(\n(.*?)^\)`)
	quotedListRe = regexp.MustCompile(`"([^"]*)"`)
)

func quoted(s string) []string {
	var out []string
	for _, m := range quotedListRe.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// wantArchs is a target's arch in rules_cuda's syntax, written out here from
// the spec rather than taken from the emitter under test.
func wantArchs(tg ir.Target) []string {
	n := strings.TrimPrefix(ir.Arches[tg.Arch].Short, "sm")
	if tg.PTX {
		return []string{fmt.Sprintf("compute_%s:compute_%s,sm_%s", n, n, n)}
	}
	return []string{fmt.Sprintf("compute_%s:sm_%s", n, n)}
}

// TestEveryKernelLibraryHasExactlyItsArch reads the checked-in generated
// BUILD file: one cuda_library per spec target, whose archs attribute is that
// target's arch alone, whose KGEN_ARCH names it, and whose sources are the
// instances of that arch.
func TestEveryKernelLibraryHasExactlyItsArch(t *testing.T) {
	m, err := kgen.Load(root, "kernels/spec.yaml")
	if err != nil {
		t.Fatal(err)
	}
	libs := map[string]string{}
	for _, body := range cudaLibRe.FindAllStringSubmatch(read(t, "kernels/generated/BUILD.bazel"), -1) {
		if n := nameRe.FindStringSubmatch(body[1]); n != nil {
			libs[n[1]] = body[1]
		}
	}
	if len(libs) != len(m.Targets) {
		t.Errorf("kernels/generated/BUILD.bazel has %d cuda_library targets, the spec %d targets", len(libs), len(m.Targets))
	}
	for _, tg := range m.Targets {
		short := ir.Arches[tg.Arch].Short
		body, ok := libs["kernels_"+short]
		if !ok {
			t.Errorf("no cuda_library kernels_%s for spec target %s", short, tg.Arch)
			continue
		}
		var archs, defines, srcs []string
		if a := archsAttrRe.FindStringSubmatch(body); a != nil {
			archs = quoted(a[1])
		}
		if d := definesRe.FindStringSubmatch(body); d != nil {
			defines = quoted(d[1])
		}
		if s := srcsAttrRe.FindStringSubmatch(body); s != nil {
			srcs = quoted(s[1])
		}
		if want := wantArchs(tg); !slices.Equal(archs, want) {
			t.Errorf("kernels_%s: archs = %q, want %q", short, archs, want)
		}
		if want := []string{"KGEN_ARCH=" + short}; !slices.Equal(defines, want) {
			t.Errorf("kernels_%s: local_defines = %q, want %q", short, defines, want)
		}
		var want []string
		for _, in := range m.InstancesFor(tg.Arch) {
			want = append(want, in.Name+".cu")
		}
		if len(want) == 0 || !slices.Equal(srcs, want) {
			t.Errorf("kernels_%s: srcs = %q, want the %d instances of %s", short, srcs, len(want), tg.Arch)
		}
	}
}
