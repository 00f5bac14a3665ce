#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Renders a PDF report, rasterises its pages with pdftoppm and fails unless every page has ink on it.
# usage: check_pdf.sh COSTSCOPE_CLI GRAPH_FILE
set -euo pipefail
cli=$1
graph=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$cli" report "$graph" --format pdf -o "$work/report.pdf"
head -c 5 "$work/report.pdf" | grep -q '%PDF-' || { echo "not a PDF: $work/report.pdf"; exit 1; }
pdftoppm -r 40 -gray "$work/report.pdf" "$work/page"
shopt -s nullglob
pages=("$work"/page*.pgm)
[ ${#pages[@]} -ge 2 ] || { echo "expected a paginated report (2+ pages), got ${#pages[@]}"; exit 1; }
for page in "${pages[@]}"; do
    # Binary PGM: a header of magic, size and maxval, then one byte per pixel. A blank page is all 255.
    dark=$(python3 - "$page" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
fields, pos = [], 0
while len(fields) < 4:
    while data[pos:pos + 1].isspace():
        pos += 1
    end = pos
    while not data[end:end + 1].isspace():
        end += 1
    fields.append(data[pos:end])
    pos = end
pixels = data[pos + 1:]
print(sum(1 for b in pixels if b < 200) * 1000 // max(1, len(pixels)))
PY
)
    echo "$(basename "$page"): ${dark} per mille dark pixels"
    [ "$dark" -ge 2 ] || { echo "page $page is blank"; exit 1; }
done
echo "PDF ok: ${#pages[@]} pages"
