// Package bazel checks the Bazel files without Bazel: every Go package has a
// BUILD file, every test file under tests/ belongs to a go_test, every label
// the BUILD files name exists in the tree (or, for @repo labels, is a
// repository MODULE.bazel brings in), every measured-results file a test
// reads is in its data, every pinned version is confirmed, every
// documented bazel command selects something, and each kernel library is
// built for its arch alone.
//
// It runs under `go test` and under `bazel test` (tagged external, so never
// cached): there it finds the source tree through the link its MODULE.bazel
// runfile is.
package bazel

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository root: ../.. under go test; under bazel test, the
// directory the MODULE.bazel runfile links to.
var root = func() string {
	srcdir, ws := os.Getenv("TEST_SRCDIR"), os.Getenv("TEST_WORKSPACE")
	if srcdir == "" || ws == "" {
		return "../.."
	}
	module, err := filepath.EvalSymlinks(filepath.Join(srcdir, ws, "MODULE.bazel"))
	if err != nil {
		return "../.."
	}
	return filepath.Dir(module)
}()

// skipped are trees that are not part of this Bazel module's packages.
var skipped = map[string]bool{"build": true, "vendor": true, "examples": true, ".git": true, ".devicecarry": true}

// walk calls f for every file below root outside skipped trees, with a
// slash-separated path relative to root.
func walk(t *testing.T, f func(rel string)) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if skipped[rel] || strings.HasPrefix(d.Name(), "bazel-") || (strings.HasPrefix(d.Name(), ".") && rel != ".") {
				return filepath.SkipDir
			}
			return nil
		}
		f(rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestEveryGoPackageHasABuildFile(t *testing.T) {
	dirs := map[string]bool{}
	walk(t, func(rel string) {
		if strings.HasSuffix(rel, ".go") && !strings.Contains(rel, "/testdata/") {
			dirs[filepath.Dir(rel)] = true
		}
	})
	for dir := range dirs {
		if _, err := os.Stat(filepath.Join(root, dir, "BUILD.bazel")); err != nil {
			t.Errorf("%s: Go package without BUILD.bazel (run: bazel run //:gazelle)", dir)
		}
	}
	if len(dirs) == 0 {
		t.Fatal("found no Go packages")
	}
}

var srcsList = regexp.MustCompile(`(?s)go_test\((.*?)\n\)`)

func TestEveryTestFileUnderTestsBelongsToAGoTest(t *testing.T) {
	n := 0
	walk(t, func(rel string) {
		if !strings.HasPrefix(rel, "tests/") || !strings.HasSuffix(rel, "_test.go") {
			return
		}
		n++
		build := filepath.ToSlash(filepath.Join(filepath.Dir(rel), "BUILD.bazel"))
		content, err := os.ReadFile(filepath.Join(root, build))
		if err != nil {
			t.Errorf("%s: no %s", rel, build)
			return
		}
		quoted := `"` + filepath.Base(rel) + `"`
		if strings.Contains(string(content), "\n# make only: "+filepath.Base(rel)+" ") {
			return // built by make alone, as the BUILD file says why
		}
		for _, m := range srcsList.FindAllStringSubmatch(string(content), -1) {
			if strings.Contains(m[1], quoted) {
				return
			}
		}
		t.Errorf("%s: in no go_test of %s", rel, build)
	})
	if n == 0 {
		t.Fatal("found no test files under tests/")
	}
}

var (
	labelRe   = regexp.MustCompile(`"((?:@[A-Za-z0-9_.~+-]*)?//[A-Za-z0-9_./-]*(?::[A-Za-z0-9_.+/-]+)?|:[A-Za-z0-9_.+/-]+)"`)
	nameRe    = regexp.MustCompile(`\bname\s*=\s*"([^"]+)"`)
	depRe     = regexp.MustCompile(`bazel_dep\(\s*name\s*=\s*"([^"]+)"`)
	useRepoRe = regexp.MustCompile(`(?s)use_repo\((.*?)\)`)
	quotedRe  = regexp.MustCompile(`"([^"]+)"`)
)

// targets lists what a package defines: rule names, and its files.
func targets(t *testing.T, pkg string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, m := range nameRe.FindAllStringSubmatch(read(t, pkg+"/BUILD.bazel"), -1) {
		out[m[1]] = true
	}
	return out
}

func TestEveryLabelExists(t *testing.T) {
	module := read(t, "MODULE.bazel")
	repos := map[string]bool{"": true, "bazel_tools": true}
	for _, m := range depRe.FindAllStringSubmatch(module, -1) {
		repos[m[1]] = true
	}
	for _, m := range useRepoRe.FindAllStringSubmatch(module, -1) {
		for _, q := range quotedRe.FindAllStringSubmatch(m[1], -1) {
			repos[q[1]] = true
		}
	}
	checked := 0
	walk(t, func(rel string) {
		base := filepath.Base(rel)
		if base != "BUILD.bazel" && base != "BUILD" && !strings.HasSuffix(base, ".bzl") {
			return
		}
		here := filepath.ToSlash(filepath.Dir(rel))
		for _, m := range labelRe.FindAllStringSubmatch(read(t, rel), -1) {
			label := m[1]
			if strings.HasPrefix(label, "//visibility:") || strings.HasSuffix(label, ":__pkg__") || strings.HasSuffix(label, ":__subpackages__") {
				continue
			}
			checked++
			repo, pkg, name := split(label, here)
			if repo != "" {
				if !repos[repo] {
					t.Errorf("%s: %s names repository @%s, which MODULE.bazel neither depends on nor uses", rel, label, repo)
				}
				continue
			}
			if _, err := os.Stat(filepath.Join(root, pkg, "BUILD.bazel")); err != nil {
				t.Errorf("%s: %s: package //%s has no BUILD.bazel", rel, label, pkg)
				continue
			}
			if targets(t, pkg)[name] {
				continue
			}
			if _, err := os.Stat(filepath.Join(root, pkg, name)); err == nil {
				continue
			}
			t.Errorf("%s: %s: no target or file %q in //%s", rel, label, name, pkg)
		}
	})
	if checked == 0 {
		t.Fatal("found no labels")
	}
	t.Logf("%d labels checked", checked)
}

var (
	resultRe  = regexp.MustCompile(`"(?:\.\./)+bench/results/([^"/]+)"`)
	exportsRe = regexp.MustCompile(`(?s)exports_files\(\s*\[(.*?)\],\s*visibility\s*=\s*\[(.*?)\]`)
)

// TestEveryResultATestReadsIsItsData: a Go test that replays measured times
// from bench/results finds the file under bazel test only if its go_test
// lists it in data and bench/results exports it to the test's package;
// without, the test skips there instead of failing.
func TestEveryResultATestReadsIsItsData(t *testing.T) {
	visible := map[string]string{} // file: the visibility list it is exported with
	for _, m := range exportsRe.FindAllStringSubmatch(read(t, "bench/results/BUILD.bazel"), -1) {
		for _, q := range quotedRe.FindAllStringSubmatch(m[1], -1) {
			visible[q[1]] = m[2]
		}
	}
	n := 0
	walk(t, func(rel string) {
		if !strings.HasSuffix(rel, "_test.go") {
			return
		}
		pkg := filepath.ToSlash(filepath.Dir(rel))
		for _, m := range resultRe.FindAllStringSubmatch(read(t, rel), -1) {
			n++
			file := m[1]
			if label := `"//bench/results:` + file + `"`; !strings.Contains(read(t, pkg+"/BUILD.bazel"), label) {
				t.Errorf("%s reads bench/results/%s: its go_test in %s/BUILD.bazel lacks %s in data", rel, file, pkg, label)
			}
			if vis, ok := visible[file]; !ok {
				t.Errorf("%s reads bench/results/%s, which bench/results/BUILD.bazel does not export", rel, file)
			} else if !strings.Contains(vis, `"//`+pkg+`:__pkg__"`) {
				t.Errorf("%s reads bench/results/%s, which bench/results/BUILD.bazel does not export to //%s", rel, file, pkg)
			}
		}
	})
	if n == 0 {
		t.Fatal("found no test reading bench/results")
	}
	t.Logf("%d files of bench/results read by tests", n)
}

// split parses label as written in package here.
func split(label, here string) (repo, pkg, name string) {
	if strings.HasPrefix(label, ":") {
		return "", here, label[1:]
	}
	if strings.HasPrefix(label, "@") {
		at := strings.Index(label, "//")
		repo = label[1:at]
		label = label[at:]
	}
	pkg, name, ok := strings.Cut(strings.TrimPrefix(label, "//"), ":")
	if !ok {
		name = filepath.Base(pkg)
	}
	return repo, pkg, name
}

func TestSplit(t *testing.T) {
	for _, tc := range []struct{ label, here, repo, pkg, name string }{
		{":x", "a/b", "", "a/b", "x"},
		{"//a/b:c", "z", "", "a/b", "c"},
		{"//a/b", "z", "", "a/b", "b"},
		{"@cuda//:cublas", "z", "cuda", "", "cublas"},
		{"@org_gorgonia_cu//blas", "z", "org_gorgonia_cu", "blas", "blas"},
	} {
		repo, pkg, name := split(tc.label, tc.here)
		if repo != tc.repo || pkg != tc.pkg || name != tc.name {
			t.Errorf("split(%q) = %q %q %q", tc.label, repo, pkg, name)
		}
	}
}
