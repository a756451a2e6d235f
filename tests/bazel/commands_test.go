package bazel

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// rule is one top-level rule call of a BUILD file.
type rule struct {
	kind, pkg, name string
	tags            []string
}

func (r rule) test() bool { return strings.HasSuffix(r.kind, "_test") }

var (
	ruleRe = regexp.MustCompile(`(?ms)^(\w+)\((?:\n(.*?)^\)|([^\n]*)\)$)`)
	tagsRe = regexp.MustCompile(`(?s)\btags\s*=\s*\[(.*?)\]`)
	// A list comprehension of tests, as tests/bazel/BUILD.bazel writes:
	// [gencode_test(...) for ... in ...]: one test at least.
	comprehensionRe = regexp.MustCompile(`(?m)^\[(\w+_test)\(`)
)

// rules reads every BUILD.bazel of the module at dir (a path relative to
// root), outside the trees Bazel does not see.
func rules(t *testing.T, dir string) []rule {
	t.Helper()
	var out []rule
	base := filepath.Join(root, dir)
	err := filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(base, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (skipped[rel] || strings.HasPrefix(d.Name(), "bazel-") || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() != "BUILD.bazel" {
			return nil
		}
		pkg := filepath.ToSlash(filepath.Dir(rel))
		if pkg == "." {
			pkg = ""
		}
		content, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range ruleRe.FindAllStringSubmatch(string(content), -1) {
			r := rule{kind: m[1], pkg: pkg}
			body := m[2] + m[3] // multi-line or one-line call
			if n := nameRe.FindStringSubmatch(body); n != nil {
				r.name = n[1]
			}
			if tg := tagsRe.FindStringSubmatch(body); tg != nil {
				for _, q := range quotedRe.FindAllStringSubmatch(tg[1], -1) {
					r.tags = append(r.tags, q[1])
				}
			}
			out = append(out, r)
		}
		for _, m := range comprehensionRe.FindAllStringSubmatch(string(content), -1) {
			out = append(out, rule{kind: m[1], pkg: pkg, name: "(" + m[1] + " list)"})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// rc is a .bazelrc: the flags of each "command[:config]" line.
type rc map[string][]string

func readRC(t *testing.T, file string) rc {
	t.Helper()
	out := rc{}
	for _, line := range strings.Split(read(t, file), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || strings.HasPrefix(f[0], "#") {
			continue
		}
		out[f[0]] = append(out[f[0]], f[1:]...)
	}
	return out
}

// hasConfig reports whether some command (common, build, test, run) defines
// config.
func (r rc) hasConfig(config string) bool {
	for key := range r {
		if _, c, ok := strings.Cut(key, ":"); ok && c == config {
			return true
		}
	}
	return false
}

// tagFilters returns the --test_tag_filters in force for `bazel test` with
// the given configs and command-line flags: the last one set wins.
func (r rc) tagFilters(configs, flags []string) []string {
	var filters []string
	apply := func(fs []string) {
		for _, f := range fs {
			if v, ok := strings.CutPrefix(f, "--test_tag_filters="); ok {
				filters = strings.Split(v, ",")
			}
		}
	}
	for _, cmd := range []string{"common", "build", "test"} {
		apply(r[cmd])
	}
	for _, c := range configs {
		for _, cmd := range []string{"common", "build", "test"} {
			apply(r[cmd+":"+c])
		}
	}
	apply(flags)
	return filters
}

// selected reports whether a test with tags runs under the tag filters
// (Bazel's rules: any excluded tag drops it; with any included tag listed, it
// needs one of them).
func selected(tags, filters []string) bool {
	include := false
	for _, f := range filters {
		if tag, ok := strings.CutPrefix(f, "-"); ok {
			if slices.Contains(tags, tag) {
				return false
			}
			continue
		}
		include = true
	}
	if !include {
		return true
	}
	for _, f := range filters {
		if !strings.HasPrefix(f, "-") && slices.Contains(tags, f) {
			return true
		}
	}
	return false
}

// matches reports whether pattern (//..., //a/..., //a:b, //a) names r.
func matches(pattern string, r rule) (match, explicit bool) {
	p := strings.TrimPrefix(pattern, "//")
	if dir, ok := strings.CutSuffix(p, "..."); ok {
		dir = strings.TrimSuffix(dir, "/")
		return dir == "" || r.pkg == dir || strings.HasPrefix(r.pkg, dir+"/"), false
	}
	pkg, name, ok := strings.Cut(p, ":")
	if !ok {
		name = filepath.Base(pkg)
	}
	if name == "all" || name == "*" {
		return r.pkg == pkg, false
	}
	return r.pkg == pkg && r.name == name, true
}

// command is one `bazel VERB ...` line of a document, in module dir.
type command struct {
	doc, line, dir string
	verb           string
	configs, flags []string
	patterns       []string
}

var fenceRe = regexp.MustCompile("(?s)```(\\w*)\n(.*?)```")

// commands lists the bazel commands in the shell code blocks of doc.
func commands(t *testing.T, doc, dir string) []command {
	t.Helper()
	var out []command
	for _, block := range fenceRe.FindAllStringSubmatch(read(t, doc), -1) {
		if block[1] != "sh" && block[1] != "" {
			continue
		}
		for _, line := range strings.Split(block[2], "\n") {
			line, _, _ = strings.Cut(line, "#")
			f := strings.Fields(line)
			if len(f) < 2 || f[0] != "bazel" {
				continue
			}
			c := command{doc: doc, line: strings.TrimSpace(line), dir: dir, verb: f[1]}
			for i := 2; i < len(f); i++ {
				a := f[i]
				switch {
				case a == "--":
					i = len(f)
				case a == "--config" && i+1 < len(f):
					i++
					c.configs = append(c.configs, f[i])
				case strings.HasPrefix(a, "--config="):
					c.configs = append(c.configs, strings.TrimPrefix(a, "--config="))
				case strings.HasPrefix(a, "-"):
					c.flags = append(c.flags, a)
				default:
					c.patterns = append(c.patterns, a)
				}
			}
			out = append(out, c)
		}
	}
	return out
}

// TestDocumentedBazelCommandsSelectSomething: every bazel command the README
// and docs show names configs that exist and targets that exist, and a
// `bazel test` selects at least one test with the tags as written (Bazel
// exits with code 4 when none is).
func TestDocumentedBazelCommandsSelectSomething(t *testing.T) {
	var all []command
	for _, d := range []struct{ doc, dir string }{
		{"README.md", "."},
		{"docs/bazel.md", "."},
		{"kernels/README.md", "."},
		{"examples/consumer/README.md", "examples/consumer"},
	} {
		all = append(all, commands(t, d.doc, d.dir)...)
	}
	if len(all) < 5 {
		t.Fatalf("found only %d bazel commands in the docs: is the parser broken?", len(all))
	}
	tests := 0
	for _, c := range all {
		rcFile := filepath.ToSlash(filepath.Join(c.dir, ".bazelrc"))
		bazelrc := readRC(t, rcFile)
		for _, cfg := range c.configs {
			if !bazelrc.hasConfig(cfg) {
				t.Errorf("%s: `%s`: --config=%s is defined nowhere in %s", c.doc, c.line, cfg, rcFile)
			}
		}
		rs := rules(t, c.dir)
		filters := bazelrc.tagFilters(c.configs, c.flags)
		for _, p := range c.patterns {
			if !strings.HasPrefix(p, "//") {
				t.Errorf("%s: `%s`: %q is not a target pattern", c.doc, c.line, p)
				continue
			}
			named, tested := 0, 0
			for _, r := range rs {
				m, explicit := matches(p, r)
				if !m {
					continue
				}
				named++
				if r.test() && (explicit || !slices.Contains(r.tags, "manual")) && selected(r.tags, filters) {
					tested++
				}
			}
			switch {
			case named == 0:
				t.Errorf("%s: `%s`: %s names no target", c.doc, c.line, p)
			case c.verb == "test" && tested == 0:
				t.Errorf("%s: `%s`: %s selects no test with tag filters %v (bazel exits with code 4)", c.doc, c.line, p, filters)
			}
			tests += tested
		}
	}
	if tests == 0 {
		t.Fatal("no documented command selects a test")
	}
}

func TestSelected(t *testing.T) {
	for _, tc := range []struct {
		tags, filters []string
		want          bool
	}{
		{nil, nil, true},
		{[]string{"gpu"}, []string{"-gpu"}, false},
		{nil, []string{"-gpu"}, true},
		{[]string{"gpu"}, []string{"gpu"}, true},
		{nil, []string{"gpu"}, false},
		{[]string{"gpu", "manual"}, []string{"gpu", "-manual"}, false},
	} {
		if got := selected(tc.tags, tc.filters); got != tc.want {
			t.Errorf("selected(%v, %v) = %v", tc.tags, tc.filters, got)
		}
	}
}

func TestMatches(t *testing.T) {
	r := rule{kind: "go_test", pkg: "tests/gemm", name: "gemm_test"}
	for _, tc := range []struct {
		pattern         string
		match, explicit bool
	}{
		{"//...", true, false},
		{"//tests/...", true, false},
		{"//tests/gemm:gemm_test", true, true},
		{"//tests/gemm:all", true, false},
		{"//tests/gem/...", false, false},
		{"//go/...", false, false},
		{"//tests/gemm", false, true},
	} {
		m, e := matches(tc.pattern, r)
		if m != tc.match || (m && e != tc.explicit) {
			t.Errorf("matches(%q) = %v, %v", tc.pattern, m, e)
		}
	}
}
