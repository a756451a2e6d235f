// Package tuning holds the dispatch tables that `bench -tune` measures and
// the one rule that reads them: Predict (and Select, SelectAligned and
// Predictor, which are it), shared by the GEMM engine (go/gemm) and the
// tuner (tools/bench), so that what the tuner evaluates is what the engine
// runs. Between the measured shapes it predicts each instance's time by a
// timing model of its tiling (model.go) fitted to the grid's times.
//
// A table is measured on one GPU for one kernel arch. For each GEMM family
// and layout of A and B it holds a grid of problem shapes (M, N, K), each
// with the time of every instance measured there. The tables are written as YAML
// under kernels/tuning/ (Format; the generator's gen/tuning reads and
// validates them) and compiled by kgen into go/internal/kernels/tuning_gen.go.
//
// The package has no dependencies, so the runtime libraries that import it
// carry no YAML parser.
package tuning
