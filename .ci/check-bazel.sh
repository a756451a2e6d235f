#!/usr/bin/env bash
# Static checks of kgen's Bazel files; Bazel itself is not needed.
#
#   .ci/check-bazel.sh
#
# 1. buildifier: every BUILD, BUILD.bazel, *.bzl, MODULE.bazel and WORKSPACE
#    file (examples and generated files included) must be formatted and free of
#    lint warnings (all of them, -warnings=all).
# 2. gazelle, in diff mode: the Go rules of the BUILD files must be what
#    `bazel run //:gazelle` would write. Gazelle runs offline (GOPROXY=off): it
#    learns the repository name of every Go module from go.mod, as the go_deps
#    extension does under Bazel, so an import outside go.mod is an error here.
#    The same check runs on examples/consumer, a module of its own.
#
# KGEN_GAZELLE_MODE=fix makes gazelle write the Go rules instead of diffing.
#
# Exits non-zero on any finding. The tools are pinned: buildifier to
# BUILDIFIER_VERSION below, gazelle to the version MODULE.bazel depends on. A
# binary on PATH is used when its version matches; otherwise the pinned version
# is installed with `go install` into $KGEN_TOOLS_DIR (default:
# ~/.cache/kgen/tools), which needs the Go module proxy once.
set -euo pipefail
shopt -s inherit_errexit # a failing go install inside $(tool ...) stops the script

# buildtools tags releases v8.x.y, which its go.mod does not allow `go install`
# to name; this is the pseudo-version of the commit of 2026-09-04.
BUILDIFIER_VERSION=v0.0.0-20260904073137-eaa4d125b423
GO_PREFIX=github.com/kgen-gpu/kgen

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tools_dir="${KGEN_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kgen/tools}"
failed=0

fail() {
  echo "check-bazel: $*" >&2
  failed=1
}

# tool NAME PACKAGE MODULE VERSION prints the path of NAME built from
# PACKAGE@VERSION, installing it first when neither PATH nor the cache has it.
tool() {
  local name=$1 pkg=$2 mod=$3 version=$4 bin
  if bin="$(command -v "$name")" && go version -m "$bin" 2>/dev/null |
    grep -Eq "^[[:space:]]+mod[[:space:]]+$mod[[:space:]]+$version([[:space:]]|$)"; then
    echo "$bin"
    return
  fi
  bin="$tools_dir/$name@$version/$name"
  if [[ ! -x "$bin" ]]; then
    echo "check-bazel: installing $pkg@$version into ${bin%/*}" >&2
    GOBIN="${bin%/*}" go install "$pkg@$version" >&2
  fi
  echo "$bin"
}

# gazelle_version prints the gazelle version MODULE.bazel depends on, so that
# the command-line gazelle writes what `bazel run //:gazelle` writes.
gazelle_version() {
  local v
  v="$(sed -n 's/^bazel_dep(name = "gazelle", version = "\([^"]*\)".*/\1/p' MODULE.bazel)"
  if [[ -z "$v" ]]; then
    echo "check-bazel: no bazel_dep(name = \"gazelle\", version = ...) line in MODULE.bazel" >&2
    return 1
  fi
  echo "v$v"
}

# bazel_files prints, NUL-separated, the Starlark files of the repository:
# those git tracks or would track (ignored ones, like bazel-* links, are not).
bazel_files() {
  local list
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    list=(git ls-files -z --cached --others --exclude-standard)
  else
    list=(find . -path ./.git -prune -o -path './bazel-*' -prune -o -type f -print0)
  fi
  "${list[@]}" | while IFS= read -r -d '' f; do
    f="${f#./}"
    [[ -f "$f" ]] || continue # deleted, not yet staged
    case "${f##*/}" in
    BUILD | BUILD.bazel | WORKSPACE | WORKSPACE.bazel | MODULE.bazel | REPO.bazel | *.bzl)
      printf '%s\0' "$f"
      ;;
    esac
  done
}

# repo_config GO_MOD prints a gazelle repository config naming the repository
# of each module GO_MOD requires as go_deps names it (gopkg.in/yaml.v3 ->
# in_gopkg_yaml_v3).
repo_config() {
  awk '
    /^require[ \t]*\(/ { inreq = 1; next }
    inreq && /^\)/ { inreq = 0; next }
    inreq && NF >= 2 && $1 != "//" { print $1 }
    /^require[ \t]+[^( \t]/ { print $2 }
  ' "$1" | awk '{
    path = $0
    host = path; sub(/\/.*/, "", host)
    n = split(host, labels, ".")
    name = labels[n]
    for (i = n - 1; i >= 1; i--) name = name "_" labels[i]
    name = tolower(name substr(path, length(host) + 1))
    gsub(/[^a-z0-9]/, "_", name)
    printf "go_repository(name = \"%s\", importpath = \"%s\")\n", name, path
  }'
}

# ignored DIR prints, NUL-separated, gazelle -exclude flags for what git
# ignores under DIR (build outputs, vendor/, bazel-* links): gazelle does not
# read .gitignore, and would index or write BUILD files there.
ignored() {
  git rev-parse --is-inside-work-tree >/dev/null 2>&1 || return 0
  git -C "$1" ls-files -z --others --ignored --exclude-standard --directory |
    while IFS= read -r -d '' f; do
      printf -- '-exclude=%s\0' "${f%/}"
    done
}

# run_gazelle DIR PREFIX REPO_CONFIG FIX checks the Go rules under DIR; FIX
# says how to update them.
run_gazelle() {
  local dir=$1 prefix=$2 config=$3 fix=$4 err rc=0 excludes
  mapfile -d '' excludes < <(ignored "$dir")
  err="$(mktemp)"
  (cd "$dir" && GOPROXY=off GOTOOLCHAIN=local GOFLAGS=-mod=mod \
    "$gazelle" update -mode="${KGEN_GAZELLE_MODE:-diff}" -repo_root=. -go_prefix="$prefix" -repo_config="$config" \
    "${excludes[@]}") 2>"$err" || rc=$?
  # Errors (an import gazelle cannot resolve, say) do not change its exit
  # status when the BUILD files already match, so any message is a failure.
  if [[ -s "$err" ]]; then
    cat "$err" >&2
    rc=1
  fi
  rm -f "$err"
  if [[ $rc != 0 ]]; then
    fail "gazelle: the Go rules under $dir/ are stale or name imports outside go.mod; $fix"
  fi
}

buildifier="$(tool buildifier github.com/bazelbuild/buildtools/buildifier github.com/bazelbuild/buildtools "$BUILDIFIER_VERSION")"
gazelle_ver="$(gazelle_version)"
gazelle="$(tool gazelle github.com/bazelbuild/bazel-gazelle/cmd/gazelle github.com/bazelbuild/bazel-gazelle "$gazelle_ver")"

mapfile -d '' files < <(bazel_files)
if [[ ${#files[@]} == 0 ]]; then
  fail "found no BUILD, .bzl or MODULE.bazel files"
elif ! "$buildifier" -mode=check -lint=warn -warnings=all "${files[@]}"; then
  fail "buildifier: fix the formatting with \`$buildifier -lint=fix FILE...\`, then the warnings it names"
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

repo_config go.mod >"$tmp/kgen.repos"
run_gazelle . "$GO_PREFIX" "$tmp/kgen.repos" "run: bazel run //:gazelle"

# The consumer resolves kgen's packages through its bazel_dep, as @kgen.
{
  repo_config examples/consumer/go.mod | awk -v kgen="importpath = \"$GO_PREFIX\")" 'index($0, kgen) == 0'
  echo "go_repository(name = \"kgen\", importpath = \"$GO_PREFIX\")"
} >"$tmp/consumer.repos"
run_gazelle examples/consumer "$(sed -n 's/^module[[:space:]]*//p' examples/consumer/go.mod)" "$tmp/consumer.repos" \
  "edit its BUILD.bazel as the diff shows"

if [[ $failed != 0 ]]; then
  exit 1
fi
echo "check-bazel: ok: ${#files[@]} Starlark files, Go rules as gazelle $gazelle_ver writes them"
