#!/usr/bin/env bash
# Builds a Gradescope autograder zip: a Linux streamlab binary, setup.sh,
# run_autograder, and optionally an exercise pack and the exercise IDs.
#
#   exercises/ci/gradescope/make_autograder.sh [-b BINARY] [-p PACK_DIR] [-H HIDDEN_DIR] [-o ZIP] [ID...]
#
# -b is a Linux amd64 streamlab binary to put in the zip, such as a release's
# streamlab-VERSION-linux-amd64 (check it against the release's SHA256SUMS);
# without it the binary is built from this checkout, which needs Go.
#
# Every ID is checked against the pack (the built-in one without -p): an ID
# the pack does not have stops the script with an error, rather than every
# submission scoring 0.
#
# -H adds the instructor's private overlay (hidden checks, and the secret
# that derives each student's seeds): Gradescope never shows students the
# autograder's files, so it is safe there. Keep the overlay itself out of
# any repository students can read.
#
# Upload the zip as the assignment's autograder ("Zip file upload").
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
pack=""
hidden=""
binary=""
out="$PWD/autograder.zip"
while getopts "b:p:H:o:" opt; do
	case "$opt" in
	b) binary="$(cd "$(dirname "$OPTARG")" && pwd)/$(basename "$OPTARG")" ;;
	p) pack="$(cd "$OPTARG" && pwd)" ;;
	H) hidden="$(cd "$OPTARG" && pwd)" ;;
	o) out="$(cd "$(dirname "$OPTARG")" && pwd)/$(basename "$OPTARG")" ;;
	*) echo "usage: $0 [-b BINARY] [-p PACK_DIR] [-H HIDDEN_DIR] [-o ZIP] [ID...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ -n "$binary" ]; then
	cp "$binary" "$work/streamlab"
elif command -v go >/dev/null; then
	(cd "$repo" && CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -trimpath -o "$work/streamlab" .)
else
	echo "make_autograder.sh: Go is not installed: give a release binary with -b streamlab-VERSION-linux-amd64" >&2
	exit 2
fi
chmod +x "$work/streamlab"
cp "$here/setup.sh" "$here/run_autograder" "$work/"
chmod +x "$work/setup.sh" "$work/run_autograder"
# The checks below run the binary the zip holds: on another platform, give
# STREAMLAB (a streamlab for this machine) to run them with.
check="${STREAMLAB:-$work/streamlab}"
packargs=()
if [ -n "$pack" ]; then
	"$check" exercise lint "$pack"
	cp -R "$pack" "$work/pack"
	packargs=(--pack "$pack")
fi
bad=0
for id in "$@"; do
	if ! msg="$("$check" exercise show "${packargs[@]}" "$id" 2>&1 >/dev/null)"; then
		echo "make_autograder.sh: exercise ID \"$id\" cannot be graded: ${msg#streamlab: }" >&2
		bad=1
	fi
done
if [ "$bad" -ne 0 ]; then
	echo "make_autograder.sh: no autograder written: fix the exercise IDs above" >&2
	exit 2
fi
if [ -n "$hidden" ]; then
	cp -R "$hidden" "$work/hidden"
fi
if [ $# -gt 0 ]; then
	printf '%s\n' "$@" >"$work/exercises.txt"
fi
rm -f "$out"
(cd "$work" && zip -qr "$out" .)
echo "$out"
