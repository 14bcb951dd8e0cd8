#!/usr/bin/env bash
# Measures `papertree index` on hostile input (issues 13 and 23): each hostile
# class alone (peak RSS, wall time, the message shown), then the real PDFs of
# ../shared/data/pdfs plus every hostile file in one folder, then how fast
# Ctrl+C (SIGINT) stops a run. Figures go to the README table "Hostile input".
#
# Every indexer run is capped so that a regression can never take the
# machine down: MemoryMax in a systemd scope when systemd-run works here,
# else an address-space limit with prlimit --as, else ulimit -v (MEM_MB,
# default 4096 MB: these two cap virtual memory, and the Go runtime, SQLite
# and the worker threads reserve about 1.9 GB of address space while the
# resident set stays near 300 MB; at 1536 MB the runtime could not start
# its heap), plus a time limit per single-file run. A run stopped by the
# cap is reported as such. Run as root, the
# indexer runs as user nobody (setpriv), as a desktop user would, so the
# mode-000 file is really unreadable.
#
#   scripts/hostile.sh [OUT_DIR]     (default /tmp/papertree-hostile)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-/tmp/papertree-hostile}
BIN=$OUT/papertree
PDFS=${PDFS:-../shared/data/pdfs}
MEM_MB=${MEM_MB:-4096}
mkdir -p "$OUT"
chmod 755 "$OUT"
go build -tags sqlite_fts5 -o "$BIN" ./backend/cmd/papertree
if [ ! -d "$OUT/hostile" ]; then
	go run ./backend/internal/hostile/genhostile "$OUT/hostile"
fi
DBS=$OUT/db; mkdir -p "$DBS"; chmod 1777 "$DBS"

# The memory cap: the first mechanism that works here.
if systemd-run --scope --quiet -p MemoryMax=64M true >/dev/null 2>&1; then
	CAP=(systemd-run --scope --quiet -p "MemoryMax=${MEM_MB}M" -p MemorySwapMax=0)
	CAPNAME="systemd-run --scope -p MemoryMax=${MEM_MB}M"
elif prlimit --as=$((MEM_MB << 20)) true >/dev/null 2>&1; then
	CAP=(prlimit --as=$((MEM_MB << 20)))
	CAPNAME="prlimit --as=${MEM_MB}MB"
else
	CAP=(bash -c 'ulimit -v '$((MEM_MB * 1024))' && exec "$@"' capped)
	CAPNAME="ulimit -v ${MEM_MB}MB"
fi
AS=()
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	AS=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
user=$(id -un); [ ${#AS[@]} -gt 0 ] && user="nobody (setpriv)"
echo "memory cap: $CAPNAME; indexer runs as: $user"

rss() { awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$1"; }
wall() { awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$1"; }

echo "== each hostile class alone"
printf "file\tpeak_rss_MB\twall\tresult\n" | tee "$OUT/classes.tsv"
for f in "$OUT"/hostile/*.pdf; do
	[ -e "$f" ] || [ -L "$f" ] || continue
	db=$DBS/one.db; rm -f "$db"*
	/usr/bin/time -v -o "$OUT/time.txt" timeout 120 "${CAP[@]}" "${AS[@]}" "$BIN" index --quiet --json --db "$db" "$f" >"$OUT/one.json" 2>"$OUT/one.err" || true
	if grep -q "out of memory" "$OUT/one.err"; then
		res="STOPPED BY THE MEMORY CAP ($CAPNAME)"
	else
		res=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); f=d["failed"]; print("indexed" if d["indexed"] else "[%s] %s" % (f[0]["code"], f[0]["error"]) if f else "?")' "$OUT/one.json" 2>/dev/null || echo "no output: $(tail -1 "$OUT/one.err")")
	fi
	printf "%s\t%s\t%s\t%s\n" "$(basename "$f")" "$(rss "$OUT/time.txt")" "$(wall "$OUT/time.txt")" "$res" | tee -a "$OUT/classes.tsv"
done

echo "== real PDFs + every hostile file in one folder"
ALL=$OUT/all; rm -rf "$ALL"; mkdir -p "$ALL"
cp "$PDFS"/*.pdf "$ALL"/
cp -a "$OUT"/hostile/* "$ALL"/
db=$DBS/all.db; rm -f "$db"*
/usr/bin/time -v -o "$OUT/time-all.txt" "${CAP[@]}" "${AS[@]}" "$BIN" index --json --db "$db" "$ALL" "$ALL/missing.pdf" >"$OUT/all.json" 2>"$OUT/all.err" || true
python3 - "$OUT/all.json" "$ALL" <<'PY'
import json, sys, os, re
d = json.load(open(sys.argv[1]))
failed = {os.path.basename(f["file"]): f for f in d["failed"]}
real = [n for n in os.listdir(sys.argv[2]) if not re.match(r"h\d\d-", n)]
print("indexed", d["indexed"], "failed", len(d["failed"]), "seconds", d["seconds"])
print("real PDFs not indexed:", [(n, failed[n]["code"], failed[n]["error"]) for n in real if n in failed])
PY
echo "peak RSS MB: $(rss "$OUT/time-all.txt")  wall: $(wall "$OUT/time-all.txt")"
if grep -q "out of memory" "$OUT/all.err"; then echo "STOPPED BY THE MEMORY CAP ($CAPNAME)"; fi
grep -E "^\[" "$OUT/all.err" | awk '{print}' > "$OUT/all.progress" || true

echo "== Ctrl+C: seconds from SIGINT to exit"
for after in 1 2 3 5 10 20; do
	db=$DBS/int.db; rm -f "$db"*
	# No shell function or subshell in between: each wrapper execs the
	# next, so $! is the indexer itself and gets the SIGINT.
	"${CAP[@]}" "${AS[@]}" "$BIN" index --quiet --db "$db" "$ALL" >/dev/null 2>&1 &
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
