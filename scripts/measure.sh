#!/usr/bin/env bash
# Reproduces the quality and speed figures quoted in the README and in issue
# notes. Needs ../shared/data beside the repository and poppler-utils.
#   scripts/measure.sh [OUTDIR]     (default: /tmp/papertree-measure)
# Run it on a quiet machine: the timings are wall-clock.
set -euo pipefail
cd "$(dirname "$0")/.."
data=${PAPERTREE_SHARED_DATA:-../shared/data}
out=${1:-/tmp/papertree-measure}
mkdir -p "$out"
[ -d "$data/pdfs" ] || { echo "measure: $data/pdfs not found" >&2; exit 1; }
go build -tags sqlite_fts5 -o "$out/papertree" ./backend/cmd/papertree
pt="$out/papertree"

echo "== heading trees (default, then --no-outline)"
"$pt" eval trees --gold "$data/gold" --pdfs "$data/pdfs" | tail -16 | tee "$out/trees.txt"
"$pt" eval trees --gold "$data/gold" --pdfs "$data/pdfs" --no-outline | tail -16 | tee "$out/trees-no-outline.txt"

echo "== ingest: pdftotext vs papertree index (44 PDFs)"
pages=$(for f in "$data"/pdfs/*.pdf; do pdfinfo "$f" 2>/dev/null | awk '/^Pages:/{print $2}'; done | awk '{s+=$1} END {print s}')
/usr/bin/time -f "pdftotext: %e s wall, %U s user, %M KB peak RSS ($pages pages)" \
  bash -c 'for f in "$0"/pdfs/*.pdf; do pdftotext "$f" /dev/null 2>/dev/null || true; done' "$data" 2>&1 | tee "$out/ingest.txt"
rm -f "$out/lib.db"*
/usr/bin/time -f "papertree index: %e s wall, %U s user, %M KB peak RSS" "$pt" index --db "$out/lib.db" --quiet "$data/pdfs" 2>&1 | tee -a "$out/ingest.txt"

echo "== QASPER tune (offline, built-in embedder)"
for b in 256 512 1024; do
  for s in pt-rag naive; do
    "$pt" eval qasper --data "$data/qasper/qasper-tune.json" --db "$out/qasper.db" --strategy $s --budget $b --json > "$out/qasper-$s-$b.json" 2>/dev/null
  done
  "$pt" eval qasper --data "$data/qasper/qasper-tune.json" --db "$out/qasper.db" --budget $b --no-summaries --json > "$out/qasper-nosum-$b.json" 2>/dev/null
  "$pt" eval qasper --data "$data/qasper/qasper-tune.json" --db "$out/qasper.db" --budget $b --no-paths --json > "$out/qasper-nopaths-$b.json" 2>/dev/null
done
printf "%-10s %6s %8s %8s %8s %8s %8s %9s\n" run budget evF1 evText ansF1 SE EACE p50ms | tee "$out/qasper.txt"
for f in "$out"/qasper-*.json; do
  python3 - "$f" <<'PY' | tee -a "$out/qasper.txt"
import json, sys, os
r = json.load(open(sys.argv[1]))
name = os.path.basename(sys.argv[1])[7:-5].rsplit("-", 1)[0]
print(f"{name:10s} {r['budget']:6d} {r['evidence_f1']:8.4f} {r['evidence_f1_text']:8.4f} {r['answer_f1']:8.4f} {r['section_entropy']:8.4f} {r['eace']:8.4f} {r['retrieval_ms_p50']:9.2f}")
PY
done

echo "== query latency at 1x/10x/100x"
"$pt" bench query --db "$out/lib.db" --n 200 --scales 1,10,100 | tee "$out/bench-query.txt"
