// Package kgen joins the generator's stages: it reads a spec, lowers it to IR,
// runs every emitter and compares or writes the result. The command
// gen/cmd/kgen and the drift test both go through it, so they cannot disagree.
package kgen

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/kgen-gpu/kgen/gen/emit"
	"github.com/kgen-gpu/kgen/gen/emit/bazel"
	"github.com/kgen-gpu/kgen/gen/emit/cheader"
	"github.com/kgen-gpu/kgen/gen/emit/cuda"
	"github.com/kgen-gpu/kgen/gen/emit/gobind"
	kmake "github.com/kgen-gpu/kgen/gen/emit/make"
	"github.com/kgen-gpu/kgen/gen/ir"
	"github.com/kgen-gpu/kgen/gen/lower"
	"github.com/kgen-gpu/kgen/gen/spec"
	"github.com/kgen-gpu/kgen/gen/tunefile"
)

// Emitters are run in this order; each owns the paths it writes.
var Emitters = []func(*ir.Module) ([]emit.File, error){
	cuda.Emit, cheader.Emit, gobind.Emit, kmake.Emit, bazel.Emit,
}

// OutputDirs are the directories generated files live in. Files there that
// carry the generated header but are no longer generated are stale.
var OutputDirs = []string{cuda.Dir, "go/internal/kernels"}

// Load reads and lowers the spec at specPath (relative to root), then reads
// the dispatch tables in the tuning directory beside it and checks them
// against the spec's instances.
func Load(root, specPath string) (*ir.Module, error) {
	data, err := os.ReadFile(filepath.Join(root, specPath))
	if err != nil {
		return nil, err
	}
	s, err := spec.Parse(specPath, data)
	if err != nil {
		return nil, err
	}
	m, err := lower.Lower(s)
	if err != nil {
		return nil, err
	}
	if m.Tunings, err = tunefile.Load(root, specPath, m); err != nil {
		return nil, err
	}
	return m, nil
}

// Generate runs every emitter over m; the files come sorted by path.
func Generate(m *ir.Module) ([]emit.File, error) {
	var files []emit.File
	seen := map[string]bool{}
	for _, e := range Emitters {
		out, err := e(m)
		if err != nil {
			return nil, err
		}
		for _, f := range out {
			if seen[f.Path] {
				return nil, fmt.Errorf("two emitters write %s", f.Path)
			}
			seen[f.Path] = true
			files = append(files, f)
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

// Drift lists how the tree under root differs from files: paths whose
// content differs or is missing, and generated files that nothing writes now.
type Drift struct {
	Changed []string
	Stale   []string
}

// Empty reports whether the tree is current.
func (d Drift) Empty() bool { return len(d.Changed) == 0 && len(d.Stale) == 0 }

// Compare checks the files on disk under root against files.
func Compare(root string, files []emit.File) (Drift, error) {
	var d Drift
	want := map[string]bool{}
	for _, f := range files {
		want[f.Path] = true
		have, err := os.ReadFile(filepath.Join(root, f.Path))
		if err != nil && !os.IsNotExist(err) {
			return d, err
		}
		if err != nil || !bytes.Equal(have, f.Content) {
			d.Changed = append(d.Changed, f.Path)
		}
	}
	stale, err := generatedFiles(root)
	if err != nil {
		return d, err
	}
	for _, p := range stale {
		if !want[p] {
			d.Stale = append(d.Stale, p)
		}
	}
	return d, nil
}

// Write brings the tree under root to files: it writes what changed and
// removes stale generated files.
func Write(root string, files []emit.File) (Drift, error) {
	d, err := Compare(root, files)
	if err != nil {
		return d, err
	}
	changed := map[string]bool{}
	for _, p := range d.Changed {
		changed[p] = true
	}
	for _, f := range files {
		if !changed[f.Path] {
			continue
		}
		full := filepath.Join(root, f.Path)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return d, err
		}
		if err := os.WriteFile(full, f.Content, 0o644); err != nil {
			return d, err
		}
	}
	for _, p := range d.Stale {
		if err := os.Remove(filepath.Join(root, p)); err != nil {
			return d, err
		}
	}
	return d, nil
}

// generatedFiles lists files in OutputDirs (not below them) that carry the
// generated-file header, as slash paths relative to root.
func generatedFiles(root string) ([]string, error) {
	var out []string
	for _, dir := range OutputDirs {
		entries, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return nil, err
		}
		for _, e := range entries {
			rel := filepath.ToSlash(filepath.Join(dir, e.Name()))
			// Follow links: under Bazel every runfile is one.
			info, err := os.Stat(filepath.Join(root, rel))
			if err != nil || !info.Mode().IsRegular() {
				continue
			}
			content, err := os.ReadFile(filepath.Join(root, rel))
			if err != nil {
				return nil, err
			}
			if emit.IsGenerated(content) {
				out = append(out, rel)
			}
		}
	}
	return out, nil
}
