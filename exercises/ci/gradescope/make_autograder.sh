#!/usr/bin/env bash
# Builds a Gradescope autograder zip: a Linux streamlab binary, setup.sh,
# run_autograder, and optionally an exercise pack and the exercise IDs.
#
#   exercises/ci/gradescope/make_autograder.sh [-p PACK_DIR] [-H HIDDEN_DIR] [-o ZIP] [ID...]
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
out="$PWD/autograder.zip"
while getopts "p:H:o:" opt; do
	case "$opt" in
	p) pack="$(cd "$OPTARG" && pwd)" ;;
	H) hidden="$(cd "$OPTARG" && pwd)" ;;
	o) out="$(cd "$(dirname "$OPTARG")" && pwd)/$(basename "$OPTARG")" ;;
	*) echo "usage: $0 [-p PACK_DIR] [-H HIDDEN_DIR] [-o ZIP] [ID...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$repo" && CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -trimpath -o "$work/streamlab" .)
cp "$here/setup.sh" "$here/run_autograder" "$work/"
chmod +x "$work/setup.sh" "$work/run_autograder"
if [ -n "$pack" ]; then
	"$work/streamlab" exercise lint "$pack"
	cp -R "$pack" "$work/pack"
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
