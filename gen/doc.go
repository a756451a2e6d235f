// Package gen is the root of kgen's generator. The generator runs in stages,
// one package each:
//
//	spec     YAML -> typed, validated spec (errors carry file:line)
//	lower    spec -> IR kernel instances
//	ir       plain data types: DType, Layout, Arch, Op, Instance, Module
//	emit/*   one printer per output: CUDA, C header, Go cgo bindings,
//	         Bazel BUILD, the non-Bazel make fragment
//	kgen     the pipeline that joins them and the drift check
//	cmd/kgen the command-line front end
//
// Nothing under gen/ is imported by the runtime libraries in go/.
package gen
