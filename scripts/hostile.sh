#!/usr/bin/env bash
# Measures `papertree index` on hostile input (issue 13): each hostile class
# alone (peak RSS, wall time, the message shown), then the 44 real PDFs of
# ../shared/data/pdfs plus every hostile file in one folder, then how fast
# Ctrl+C (SIGINT) stops a run. Figures go to the README table "Hostile input".
#
#   scripts/hostile.sh [OUT_DIR]     (default /tmp/papertree-hostile)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-/tmp/papertree-hostile}
BIN=$OUT/papertree
PDFS=${PDFS:-../shared/data/pdfs}
mkdir -p "$OUT"
go build -tags sqlite_fts5 -o "$BIN" ./backend/cmd/papertree
if [ ! -d "$OUT/hostile" ]; then
	go run ./backend/internal/hostile/genhostile "$OUT/hostile"
fi

rss() { awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$1"; }
wall() { awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$1"; }

echo "== each hostile class alone"
printf "file\tpeak_rss_MB\twall\tresult\n" | tee "$OUT/classes.tsv"
for f in "$OUT"/hostile/*.pdf; do
	db=$OUT/one.db; rm -f "$db"*
	/usr/bin/time -v -o "$OUT/time.txt" timeout 120 "$BIN" index --quiet --json --db "$db" "$f" >"$OUT/one.json" 2>"$OUT/one.err" || true
	res=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); f=d["failed"]; print("indexed" if d["indexed"] else "[%s] %s" % (f[0]["code"], f[0]["error"]) if f else "?")' "$OUT/one.json" 2>/dev/null || echo "no output: $(tail -1 "$OUT/one.err")")
	printf "%s\t%s\t%s\t%s\n" "$(basename "$f")" "$(rss "$OUT/time.txt")" "$(wall "$OUT/time.txt")" "$res" | tee -a "$OUT/classes.tsv"
done

echo "== real PDFs + every hostile file in one folder"
ALL=$OUT/all; rm -rf "$ALL"; mkdir -p "$ALL"
cp "$PDFS"/*.pdf "$ALL"/
cp -a "$OUT"/hostile/* "$ALL"/
db=$OUT/all.db; rm -f "$db"*
/usr/bin/time -v -o "$OUT/time-all.txt" "$BIN" index --json --db "$db" "$ALL" "$ALL/missing.pdf" >"$OUT/all.json" 2>"$OUT/all.err" || true
python3 - "$OUT/all.json" "$ALL" <<'PY'
import json, sys, os
d = json.load(open(sys.argv[1]))
failed = {os.path.basename(f["file"]): f for f in d["failed"]}
real = [n for n in os.listdir(sys.argv[2]) if not n.startswith("h")]
print("indexed", d["indexed"], "failed", len(d["failed"]), "seconds", d["seconds"])
print("real PDFs not indexed:", [(n, failed[n]["code"], failed[n]["error"]) for n in real if n in failed])
PY
echo "peak RSS MB: $(rss "$OUT/time-all.txt")  wall: $(wall "$OUT/time-all.txt")"
grep -E "^\[" "$OUT/all.err" | awk '{print}' > "$OUT/all.progress" || true

echo "== Ctrl+C: seconds from SIGINT to exit"
for after in 1 2 3 5 10 20; do
	db=$OUT/int.db; rm -f "$db"*
	"$BIN" index --quiet --db "$db" "$ALL" >/dev/null 2>&1 &
	pid=$!
	sleep "$after"
	t0=$(date +%s.%N)
	if ! kill -INT "$pid" 2>/dev/null; then
		# The run ended before the signal (a fast machine): nothing to time.
		wait "$pid" || true
		printf "SIGINT after %ss: the run had already finished\n" "$after"
		continue
	fi
	wait "$pid" || true
	t1=$(date +%s.%N)
	printf "SIGINT after %ss: exited in %.3fs\n" "$after" "$(echo "$t1 - $t0" | bc)"
done
