#!/usr/bin/env bash
# CI for the nested Beam module (beam/): vet and test it. The parent
# repository's .ci/run calls this script; it runs from any directory.
set -euo pipefail
cd "$(dirname "$0")"
go vet ./...
go test ./...
