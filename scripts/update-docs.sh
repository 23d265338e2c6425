#!/usr/bin/env bash
# Regenerates the dialect reference docs from ODS and copies them into
# docs/dialects/ (a lit test checks that the committed copies are current).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TSMLIR_BUILD_DIR:-$ROOT/build}"
ninja -C "$BUILD" tsmlir-doc
mkdir -p "$ROOT/docs/dialects"
cp "$BUILD"/docs/Dialects/*.md "$ROOT/docs/dialects/"
echo "updated: $(ls "$ROOT"/docs/dialects)"
