#!/bin/sh
# Publishes a folder as the one and only commit of a branch:
#
#   sh scripts/publish_release_branch.sh <tree-dir> <remote> <branch> <message>
#
# Run inside a clone of the repository. The commit has no parent and is force-pushed, so the
# branch never accumulates the binaries of earlier releases: each release replaces the last, and
# a clone of the branch downloads one release's files. (Every version's binaries stay attached to
# its GitHub release.) Prints the new commit's id.
set -eu

tree_dir=$1
remote=$2
branch=$3
message=$4

git_dir=$(git rev-parse --absolute-git-dir)
cd "$tree_dir"
index="$git_dir/release-branch.index"
rm -f "$index"
trap 'rm -f "$index"' EXIT

GIT_INDEX_FILE=$index git --git-dir="$git_dir" --work-tree=. add --all --force -- .
tree=$(GIT_INDEX_FILE=$index git --git-dir="$git_dir" write-tree)
commit=$(git --git-dir="$git_dir" commit-tree "$tree" -m "$message")
git --git-dir="$git_dir" push --quiet --force "$remote" "$commit:refs/heads/$branch"
echo "$commit"
