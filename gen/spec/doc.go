// Package spec decodes and validates kgen's YAML kernel spec
// (kernels/spec.yaml; every field is documented in kernels/README.md).
//
// Parse decodes into a yaml.Node tree and walks it by hand rather than
// unmarshalling into structs, so that every field keeps its line and every
// unknown key, wrong kind or missing field can be reported as
// "path:line: message". Errors are collected, never returned one at a time:
// a spec author fixes them all in one pass.
//
// Decoding (parse.go, decode.go, node.go) checks shape: kinds, keys, spellings, empty lists.
// Validation (validate.go, types.go, tiling.go) checks meaning on the typed
// Spec: type legality, what this release implements, and the tiling rules of
// the f32 kernel. Validate is exported so that gen/lower can re-check a Spec
// that did not come from Parse.
package spec
