#!/usr/bin/env bash
# Checks the session files a push or pull request changed, with ysess fsck:
# each changed file must be sound, and, against the base revision, each must
# only have grown (a file rewritten, shortened or deleted since the base
# fails, named, as `ysess fsck --since-rev` names it). The GitHub Action
# in action.yml runs this; it runs as well anywhere else, in a git work tree
# whose HEAD is the revision to check.
#
# usage: fsck-changed.sh [--base REV] [--strict] [--] [PATHSPEC...]
#
#   --base REV   the revision the changes are measured from (a push's
#                previous tip, a pull request's base). Empty or all zeros
#                (a new branch): no base, so every session file is checked,
#                and nothing is proved about growth. When REV is not in a
#                shallow clone, it is fetched from `origin` (one commit).
#   --strict     warnings fail too (ysess fsck --strict)
#   PATHSPEC     which files are session files, as git pathspecs (`*`
#                crosses folders); default `*.jsonl`
#
# ysess is the one on PATH, or $YSESS. Exit status: ysess fsck's (0 sound,
# 1 a finding, 128 a file or the base unreadable), 2 for a wrong usage.
set -euo pipefail

base=""
strict=()
while [ $# -gt 0 ]; do
  case "$1" in
    --base) [ $# -ge 2 ] || { echo "error: --base needs a revision" >&2; exit 2; }
      base="$2"; shift 2 ;;
    --base=*) base="${1#--base=}"; shift ;;
    --strict) strict=(--strict); shift ;;
    --) shift; break ;;
    -*) echo "error: unknown option $1" >&2
      echo "usage: fsck-changed.sh [--base REV] [--strict] [--] [PATHSPEC...]" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || set -- '*.jsonl'
ysess="${YSESS:-ysess}"

top=$(git rev-parse --show-toplevel)
cd "$top"

# A new branch's push names no previous tip: its "before" is all zeros.
if [[ "$base" =~ ^0*$ ]]; then
  base=""
fi

files=()
if [ -n "$base" ]; then
  if ! git cat-file -e "$base^{commit}" 2>/dev/null \
    && git remote get-url origin >/dev/null 2>&1; then
    # A shallow checkout (actions/checkout's default) lacks the base: only
    # its tree is needed, so one commit is fetched.
    echo "fetching the base $base from origin" >&2
    git fetch --quiet --no-tags --depth=1 origin "$base" >&2 || true
  fi
  if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
    echo "error: the base revision $base is not in this repository" >&2
    echo "hint: fetch it, or the whole history: actions/checkout with \`fetch-depth: 0\`" >&2
    exit 128
  fi
  # Deleted files too: ysess reports each as deleted since the base.
  while IFS= read -r -d '' f; do
    files+=("$f")
  done < <(git diff --name-only --no-renames -z "$base" HEAD -- "$@")
  what="changed since $base"
else
  while IFS= read -r -d '' f; do
    files+=("$f")
  done < <(git ls-files -z -- "$@")
  what="in the repository (no base to compare with)"
fi

if [ ${#files[@]} -eq 0 ]; then
  echo "no session file $what (paths: $*)" >&2
  exit 0
fi
echo "ysess fsck: ${#files[@]} session file(s) $what" >&2
if [ -n "$base" ]; then
  exec "$ysess" fsck "${strict[@]}" --since-rev "$base" -- "${files[@]}"
else
  exec "$ysess" fsck "${strict[@]}" -- "${files[@]}"
fi
