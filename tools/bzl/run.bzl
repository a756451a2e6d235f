"""`bazel run` targets that run a tool in the source tree, for generators.

`bazel run` starts a binary in its runfiles tree; a generator that writes
checked-in files needs the workspace instead. workspace_run wraps a tool in a
script that changes to $BUILD_WORKSPACE_DIRECTORY first, so the tool can take
paths relative to the repository root and write no absolute path into what it
generates.
"""

load("@bazel_skylib//lib:shell.bzl", "shell")

_SCRIPT = """#!/usr/bin/env bash
set -euo pipefail
if [[ -z "${{BUILD_WORKSPACE_DIRECTORY:-}}" ]]; then
  echo "{label}: run it with bazel run, which sets BUILD_WORKSPACE_DIRECTORY" >&2
  exit 2
fi
runfiles="$(cd "${{RUNFILES_DIR:-$0.runfiles}}" && pwd)"
tool="$runfiles/{tool}"
cd "$BUILD_WORKSPACE_DIRECTORY"
exec "$tool" {args} "$@"
"""

def _runfiles_path(ctx, file):
    # short_path is "../<repo>/<path>" for a file of another repository.
    if file.short_path.startswith("../"):
        return file.short_path[len("../"):]
    return ctx.workspace_name + "/" + file.short_path

def _workspace_run_impl(ctx):
    script = ctx.actions.declare_file(ctx.label.name + ".bash")
    ctx.actions.write(
        output = script,
        content = _SCRIPT.format(
            label = str(ctx.label),
            tool = _runfiles_path(ctx, ctx.executable.tool),
            args = " ".join([shell.quote(a) for a in ctx.attr.tool_args]),
        ),
        is_executable = True,
    )
    runfiles = ctx.runfiles(files = [ctx.executable.tool])
    runfiles = runfiles.merge(ctx.attr.tool[DefaultInfo].default_runfiles)
    return [DefaultInfo(executable = script, runfiles = runfiles)]

workspace_run = rule(
    implementation = _workspace_run_impl,
    doc = "Runs `tool tool_args... [bazel run arguments...]` in the workspace directory.",
    attrs = {
        "tool": attr.label(
            mandatory = True,
            executable = True,
            cfg = "target",
            doc = "The binary to run.",
        ),
        "tool_args": attr.string_list(
            doc = "Arguments before those given on the bazel run command line; " +
                  "paths in them are relative to the workspace root.",
        ),
    },
    executable = True,
)
