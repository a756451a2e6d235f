module example.com/kgenconsumer

go 1.24.0

require github.com/kgen-gpu/kgen v0.1.0

// For the go command only (go build, gopls): kgen is not published, so point
// it at this checkout. Bazel does not read this file: kgen comes from the
// bazel_dep and local_path_override in MODULE.bazel. README.md says why a
// monorepo that uses go_deps must not copy this replace.
replace github.com/kgen-gpu/kgen => ../..
