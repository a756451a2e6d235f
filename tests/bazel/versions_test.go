package bazel

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// confirmed is the table "## Versions" of docs/bazel.md: module (or
// "bazel") -> version -> where that version was confirmed to exist.
func confirmed(t *testing.T) map[string]map[string]string {
	t.Helper()
	doc := read(t, "docs/bazel.md")
	_, section, ok := strings.Cut(doc, "\n## Versions\n")
	if !ok {
		t.Fatal("docs/bazel.md has no \"## Versions\" section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	out := map[string]map[string]string{}
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if len(cells) < 3 || strings.HasPrefix(strings.TrimSpace(cells[0]), "---") {
			continue
		}
		name := strings.Trim(strings.TrimSpace(cells[0]), "`")
		version := strings.Trim(strings.TrimSpace(cells[1]), "`")
		if out[name] == nil {
			out[name] = map[string]string{}
		}
		out[name][version] = strings.TrimSpace(cells[2])
	}
	return out
}

var bazelDepRe = regexp.MustCompile(`bazel_dep\(\s*name\s*=\s*"([^"]+)"\s*,\s*version\s*=\s*"([^"]+)"`)

// TestEveryPinnedVersionIsConfirmed: each bazel_dep of every module here and
// each .bazelversion is in docs/bazel.md's table, with where it was confirmed.
func TestEveryPinnedVersionIsConfirmed(t *testing.T) {
	table := confirmed(t)
	check := func(file, name, version string) {
		where, ok := table[name][version]
		switch {
		case !ok:
			t.Errorf("%s: %s %s is not in the Versions table of docs/bazel.md", file, name, version)
		case where == "" || where == "-":
			t.Errorf("docs/bazel.md: %s %s: say where this version was confirmed", name, version)
		}
	}
	pins := 0
	for _, dir := range []string{".", "examples/consumer"} {
		file := filepath.ToSlash(filepath.Join(dir, "MODULE.bazel"))
		for _, m := range bazelDepRe.FindAllStringSubmatch(read(t, file), -1) {
			if m[1] == "kgen" {
				continue // this module itself, through local_path_override
			}
			pins++
			check(file, m[1], m[2])
		}
		file = filepath.ToSlash(filepath.Join(dir, ".bazelversion"))
		pins++
		check(file, "bazel", strings.TrimSpace(read(t, file)))
	}
	if pins < 4 {
		t.Fatalf("found only %d pinned versions: is MODULE.bazel readable?", pins)
	}
}

// TestNestedModulesAreIgnored: a MODULE.bazel below the root is another
// module; without a .bazelignore entry, `bazel build //...` here walks into
// it and into the bazel-* links its builds leave.
func TestNestedModulesAreIgnored(t *testing.T) {
	var ignored []string
	for _, line := range strings.Split(read(t, ".bazelignore"), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			ignored = append(ignored, strings.TrimSuffix(line, "/"))
		}
	}
	nested := 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && (rel == ".git" || strings.HasPrefix(d.Name(), "bazel-") || rel == "build" || rel == "vendor") {
			return filepath.SkipDir
		}
		if d.Name() != "MODULE.bazel" || rel == "MODULE.bazel" {
			return nil
		}
		nested++
		for _, dir := range ignored {
			if strings.HasPrefix(rel, dir+"/") {
				return nil
			}
		}
		t.Errorf("%s: a nested module that .bazelignore does not list", rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if nested == 0 {
		t.Fatal("found no nested module (examples/consumer has one): is the walk broken?")
	}
}
