"""The kernels' host tests: kernels/tests/<name>.cu, run without a GPU."""

load("@rules_cuda//cuda:defs.bzl", "cuda_test")

def host_test(name, srcs = []):
    """A host test built as make host-test builds it (kernels/tests/run_host_test.sh).

    Args:
      name: the test, whose source is <name>.cu.
      srcs: the headers it includes from this package besides host_check.h.
    """
    cuda_test(
        name = name,
        srcs = [name + ".cu", "host_check.h"] + srcs,
        archs = ["compute_80:sm_80"],
        copts = ["-std=c++17"],
        local_defines = ["KGEN_ARCH=host"],
        deps = ["//kernels:headers"],
    )
