#!/usr/bin/env bash
# Screenshots of the production binary for docs/screenshots/ (not part of
# make test): the library searched and sorted, a Zotero import's result.
# Needs ../shared/data (PDFs and the Zotero fixture), Xvfb, ImageMagick and a
# C compiler with libX11/libXtst headers (scripts/xtype.c types into the window).
# Usage: scripts/screenshots.sh [APP] [CLI] [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/bin/papertree-app}
cli=${2:-bin/papertree}
out=${3:-docs/screenshots}
data=${PAPERTREE_SHARED_DATA:-../shared/data}
[ -d "$data/pdfs" ] && [ -d "$data/zotero/Zotero" ] || { echo "screenshots: $data is missing" >&2; exit 1; }
work=$(mktemp -d)
xvfb_pid="" app_pid=""
cleanup() {
  [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null || true
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
cc -O2 -o "$work/xtype" scripts/xtype.c -lX11 -lXtst
display=""
for n in $(seq 150 190); do
  if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then display=":$n"; break; fi
done
Xvfb "$display" -screen 0 1280x860x24 -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
sleep 1
export DISPLAY=$display

# start LIBRARY ARGS...: start the app and wait for its first list.
start() {
  local lib=$1
  shift
  : >"$work/app.log"
  "$bin" --library "$lib" "$@" >"$work/app.log" 2>&1 &
  app_pid=$!
  for _ in $(seq 240); do
    grep -q "listed papers" "$work/app.log" && xwininfo -name PaperTree >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  echo "screenshots: the app did not start" >&2
  tail "$work/app.log" >&2
  exit 1
}
shot() { # shot FILE: the window
  local win
  win=$(xwininfo -name PaperTree | awk '/Window id:/ {print $4}')
  sleep 1.5
  import -window "$win" "$1"
  echo "screenshots: $1"
}
stop() { kill "$app_pid" 2>/dev/null || true; wait "$app_pid" 2>/dev/null || true; app_pid=""; }

# 1. A library of real papers, with a Zotero library and a .bib imported.
mkdir -p "$work/papers"
for f in bert_1810.04805 dehghani2019_universal_transformers_iclr kim2014_cnn_sentence_classification_emnlp \
  lee2017_e2e_coreference_emnlp lai2015_rcnn_text_classification_aaai alexnet_nips2012 hinton2006_fast_learning_dbn \
  akbc2019_lstm_cnn_nary_re barkan2016_item2vec_ieee_word emerging_crosslingual_structure; do
  cp "$data/pdfs/$f.pdf" "$work/papers/" 2>/dev/null || true
done
cat >"$work/papers/refs.bib" <<'BIB'
@inproceedings{devlin2019bert,
  title = {{BERT}: Pre-training of Deep Bidirectional Transformers for Language Understanding},
  author = {Devlin, Jacob and Chang, Ming-Wei and Lee, Kenton and Toutanova, Kristina},
  booktitle = {Proceedings of NAACL-HLT},
  year = 2019,
  file = {:bert_1810.04805.pdf:PDF}
}
@inproceedings{kim2014cnn,
  title = {Convolutional Neural Networks for Sentence Classification},
  author = {Kim, Yoon},
  booktitle = {Proceedings of EMNLP},
  year = 2014,
  file = {:kim2014_cnn_sentence_classification_emnlp.pdf:PDF}
}
BIB
"$cli" index --quiet --db "$work/lib/library.db" "$work/papers" >/dev/null
"$cli" import bibtex --quiet --db "$work/lib/library.db" "$work/papers/refs.bib" >/dev/null
cp -r "$data/zotero/Zotero" "$work/Zotero"
chmod -R u+w "$work/Zotero"
"$cli" import zotero --quiet --db "$work/lib/library.db" "$work/Zotero" >/dev/null
printf '{"folders": ["%s", "%s"]}\n' "$work/papers" "$work/Zotero/storage" >"$work/lib/folders.json"

start "$work/lib"
sleep 2
# Search, then sort by year: click "Year" (its place in the 1180x780 window).
"$work/xtype" /
"$work/xtype" "neural"
sleep 1.5
read -r wx wy < <(xwininfo -name PaperTree | awk '/Absolute upper-left X/ {x=$4} /Absolute upper-left Y/ {y=$4} END {print x, y}')
"$work/xtype" --click $((wx + ${SORT_X:-393})) $((wy + ${SORT_Y:-279}))
sleep 1
shot "$out/library-search-sort.png"
stop

# 2. papertree-app ~/Zotero: the import's result.
start "$work/zlib" "$work/Zotero"
for _ in $(seq 240); do grep -q '"imported"\|msg=imported' "$work/app.log" && break; sleep 0.5; done
sleep 2
shot "$out/zotero-import.png"
stop
