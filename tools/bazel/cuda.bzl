"""A rules_cuda cuda_library compiled for its own CUDA architectures.

rules_cuda compiles every cuda_library for the archs in the build setting
@rules_cuda//cuda:archs and rejects -gencode, -arch and -code in copts, so one
build cannot hold a library for sm_80 beside a library for sm_90. kgen needs
exactly that: each kernel instance is compiled once per target arch, with that
arch's flags, and the per-arch libraries link into one binary (launcher symbols
carry the arch suffix). kgen_cuda_library builds its cuda_library under a
transition that sets @rules_cuda//cuda:archs for that library alone, so the
root module's own --@rules_cuda//cuda:archs neither adds nor removes archs.
"""

load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")
load("@rules_cuda//cuda:defs.bzl", "cuda_library")

# A canonical label: the transition must name the flag the same way whichever
# module (kgen or a module depending on it) loads this file.
_ARCHS_FLAG = str(Label("@rules_cuda//cuda:archs"))

def _archs_transition_impl(_settings, attr):
    return {_ARCHS_FLAG: attr.cuda_archs}

_archs_transition = transition(
    implementation = _archs_transition_impl,
    inputs = [],
    outputs = [_ARCHS_FLAG],
)

def _cuda_archs_library_impl(ctx):
    # An outgoing transition makes the attribute a list, even a 1:1 one.
    library = ctx.attr.library[0]
    return [
        library[CcInfo],
        DefaultInfo(files = library[DefaultInfo].files),
    ]

cuda_archs_library = rule(
    implementation = _cuda_archs_library_impl,
    doc = "Forwards the CcInfo of `library` built with @rules_cuda//cuda:archs set to `cuda_archs`.",
    attrs = {
        "cuda_archs": attr.string(
            mandatory = True,
            doc = "Value for @rules_cuda//cuda:archs, e.g. \"compute_90:compute_90,sm_90\" " +
                  "(cubin for sm_90 and PTX for compute_90).",
        ),
        "library": attr.label(
            mandatory = True,
            providers = [CcInfo],
            cfg = _archs_transition,
            doc = "The cuda_library (or any CcInfo target) to build for `cuda_archs`.",
        ),
    },
    provides = [CcInfo],
)

def kgen_cuda_library(name, cuda_archs, visibility = None, tags = None, **kwargs):
    """A cuda_library built for `cuda_archs` only, whatever @rules_cuda//cuda:archs says.

    Defines `<name>_cuda`, the cuda_library itself (tagged manual: built alone
    it would use the global archs), and `<name>`, which builds it for
    `cuda_archs` and is what other targets depend on.

    Args:
      name: name of the target to depend on.
      cuda_archs: @rules_cuda//cuda:archs syntax, e.g. "compute_80:sm_80" for sm_80
        machine code only, "compute_90:compute_90,sm_90" for sm_90 machine code plus
        compute_90 PTX.
      visibility: visibility of `<name>`; `<name>_cuda` is private.
      tags: tags of both targets.
      **kwargs: cuda_library attributes (srcs, hdrs, copts, local_defines, deps, ...).
    """
    tags = tags or []
    cuda_library(
        name = name + "_cuda",
        tags = tags + ["manual"],
        visibility = ["//visibility:private"],
        **kwargs
    )
    cuda_archs_library(
        name = name,
        cuda_archs = cuda_archs,
        library = ":" + name + "_cuda",
        tags = tags,
        visibility = visibility,
    )
