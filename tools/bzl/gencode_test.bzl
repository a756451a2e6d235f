"""An analysis test of the -gencode flags nvcc gets for a cuda_library.

Each kernel library of kernels/generated must be compiled for exactly the arch
the spec gives it, whatever --@rules_cuda//cuda:archs says on the command line.
gencode_test checks the CudaCompile actions of one library: every flag in
`want` is on the command line, and no -gencode flag other than those is.
"""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")

def _gencode_flags(argv):
    """The "-gencode <value>" pairs of a command line, as single strings."""
    flags = []
    for i, arg in enumerate(argv):
        if arg == "-gencode" and i + 1 < len(argv):
            flags.append("-gencode " + argv[i + 1])
        elif arg.startswith("-gencode=") or arg.startswith("--generate-code"):
            flags.append(arg)
    return flags

def _gencode_test_impl(ctx):
    env = analysistest.begin(ctx)
    compiles = [a for a in analysistest.target_actions(env) if a.mnemonic == "CudaCompile"]
    asserts.true(env, len(compiles) > 0, "no CudaCompile action")
    for action in compiles:
        got = _gencode_flags(action.argv)
        for flag in ctx.attr.want:
            asserts.true(env, flag in got, "%s missing from %s" % (flag, got))
        for flag in got:
            asserts.true(env, flag in ctx.attr.want, "unexpected %s (want exactly %s)" % (flag, ctx.attr.want))
    return analysistest.end(env)

# The command line sets other archs, which the library must ignore.
gencode_test = analysistest.make(
    _gencode_test_impl,
    attrs = {
        "want": attr.string_list(
            mandatory = True,
            doc = "Every -gencode flag the library's compile actions must have, and no others, " +
                  "e.g. \"-gencode arch=compute_90,code=sm_90\".",
        ),
    },
    config_settings = {
        str(Label("@rules_cuda//cuda:archs")): "compute_75:sm_75",
    },
)
