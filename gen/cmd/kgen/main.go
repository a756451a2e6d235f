// Command kgen regenerates the CUDA kernels, the C header, the Go bindings and
// the build descriptions from a kernel spec.
//
//	go run ./gen/cmd/kgen [-spec kernels/spec.yaml] [-root .] [-check]
//
// With -check it writes nothing and exits 1 when a generated file is stale.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/kgen-gpu/kgen/gen/kgen"
)

func main() {
	specPath := flag.String("spec", "kernels/spec.yaml", "spec file, relative to -root")
	root := flag.String("root", ".", "repository root the generated paths are relative to")
	check := flag.Bool("check", false, "report stale generated files and exit 1 instead of writing")
	flag.Parse()
	if err := run(*root, *specPath, *check); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(root, specPath string, check bool) error {
	m, err := kgen.Load(root, specPath)
	if err != nil {
		return err
	}
	files, err := kgen.Generate(m)
	if err != nil {
		return err
	}
	if check {
		d, err := kgen.Compare(root, files)
		if err != nil {
			return err
		}
		if !d.Empty() {
			return fmt.Errorf("kgen: stale: %v, no longer generated: %v", d.Changed, d.Stale)
		}
		return nil
	}
	d, err := kgen.Write(root, files)
	if err != nil {
		return err
	}
	fmt.Printf("kgen: %d instances, %d files; wrote %d, removed %d\n", len(m.Instances), len(files), len(d.Changed), len(d.Stale))
	return nil
}
