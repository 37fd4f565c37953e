#!/usr/bin/env bash
# Gradescope runs this once, when it builds the autograder's image. The zip
# that make_autograder.sh builds already holds the streamlab binary, so
# there is nothing to install.
set -euo pipefail
cd /autograder/source
chmod +x streamlab run_autograder
./streamlab version
