#!/usr/bin/env bash
# Hostile posts (issue 25): how long each Markdown shape that cmark-gfm 0.29.0.gfm.6 parses in super-linear time takes
# to publish, and the whole corpus. Release build; not part of `swift test`.
#
#   Benchmarks/hostile/run.sh               # every shape of shapes.py at $BYTES (default 1 MB): one post per export,
#                                           # then the 26-post corpus in one export; a table on stdout
#   Benchmarks/hostile/run.sh --callgrind   # cmark-gfm's instruction counts (valgrind --tool=callgrind) for random
#                                           # shapes at 64 KB and 512 KB that the pre-scan lets through: the cost per
#                                           # byte must not grow with the size (exit 1 when 512 KB costs over MAX_RATIO,
#                                           # default 2, times as much per byte as 64 KB)
#
# Each export is `boardarchive export` of a fixture dataset served by `boardarchive fixture-api --data FILE
# --keep-dates`, timed with `date +%s.%N`; the per-post figure subtracts the export of one ordinary post. Targets: every
# shape under 1 s, the corpus under 10 s. Knobs: BYTES (1000000), OUT (bench-out/hostile), SEEDS (8, --callgrind),
# BIN (a boardarchive binary to use instead of building the release one).
set -euo pipefail
cd "$(dirname "$0")/../.."

MODE="${1:-}"
BYTES="${BYTES:-1000000}"
OUT="${OUT:-bench-out/hostile}"
SEEDS="${SEEDS:-8}"
SHAPES="Benchmarks/hostile/shapes.py"
mkdir -p "$OUT"

if [ -z "${BIN:-}" ]; then
    swift build -c release --product boardarchive >&2
    BIN="$(swift build -c release --show-bin-path)/boardarchive"
fi

server=""
stop_server() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; server=""; fi
}
trap stop_server EXIT

# Serves dataset $1 and prints the API's URL.
serve() {
    stop_server
    "$BIN" fixture-api --data "$1" --keep-dates --port 0 >"$OUT/server.log" 2>&1 &
    server=$!
    for _ in $(seq 300); do
        grep -q "listening on" "$OUT/server.log" && break
        kill -0 "$server" 2>/dev/null || { cat "$OUT/server.log" >&2; exit 1; }
        sleep 0.1
    done
    grep -o 'http://[^ ]*' "$OUT/server.log" | head -1
}

# Exports dataset $1 into $OUT/site (fresh store and site) and prints the seconds it took; $2 wraps the command.
export_seconds() {
    local api
    api="$(serve "$1")"
    rm -rf "$OUT/site" "$OUT/store.sqlite"
    local start end
    start=$(date +%s.%N)
    BOARD_API_TOKEN=bench ${2:-} "$BIN" export --api "$api" --store "$OUT/store.sqlite" --create-store --out "$OUT/site" --json-logs \
        >"$OUT/export.log" 2>&1 || { tail -20 "$OUT/export.log" >&2; exit 1; }
    end=$(date +%s.%N)
    stop_server
    python3 -c "print(f'{$end - $start:.2f}')"
}

if [ "$MODE" = "--callgrind" ]; then
    # For each random shape (the pieces of MarkdownBudgetPropertyTests) at 64 KB and 512 KB: the release build says
    # whether the body reaches cmark-gfm (no "rendered as plain text" warning); if it does, cmark-gfm's instructions
    # for it are counted under callgrind (the library called through ctypes, with MarkdownRenderer's extensions and
    # options; Python's own start-up, measured on a one-byte body, subtracted). Valgrind 3.19 cannot run the Swift
    # binary itself (it stops on its debug information), and a body sent to plain text costs one linear pass.
    command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 1; }
    cat >"$OUT/cmark_ir.py" <<'PY'
import ctypes, sys
lib = ctypes.CDLL("libcmark-gfm.so.0.29.0.gfm.6")
ctypes.CDLL("libcmark-gfm-extensions.so.0.29.0.gfm.6").cmark_gfm_core_extensions_ensure_registered()
for name in ["cmark_parser_new", "cmark_find_syntax_extension", "cmark_parser_finish", "cmark_parser_get_syntax_extensions", "cmark_render_html"]:
    getattr(lib, name).restype = ctypes.c_void_p
data = open(sys.argv[1], "rb").read()
options = (1 << 2) | (1 << 15)  # CMARK_OPT_HARDBREAKS | CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES
parser = ctypes.c_void_p(lib.cmark_parser_new(options))
for name in [b"table", b"strikethrough", b"autolink", b"tagfilter", b"tasklist"]:
    lib.cmark_parser_attach_syntax_extension(parser, ctypes.c_void_p(lib.cmark_find_syntax_extension(name)))
lib.cmark_parser_feed(parser, data, len(data))
document = ctypes.c_void_p(lib.cmark_parser_finish(parser))
lib.cmark_render_html(document, options, ctypes.c_void_p(lib.cmark_parser_get_syntax_extensions(parser)))
PY
    # The real interpreter (a pyenv shim is a script, which valgrind would follow instead).
    PY3="$(python3 -c 'import sys; print(sys.executable)')"
    ir() {  # cmark-gfm's instructions for the body in file $1
        valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.out" "$PY3" "$OUT/cmark_ir.py" "$1" >/dev/null 2>&1
        grep -m1 '^summary:' "$OUT/callgrind.out" | awk '{print $2}'
    }
    MAX_RATIO="${MAX_RATIO:-2}"
    grown=""
    printf a >"$OUT/one-byte.md"
    base=$(ir "$OUT/one-byte.md")
    echo "| seed | 64 KB: Ir/byte | 512 KB: Ir/byte | ratio |"
    echo "|---|---|---|---|"
    for seed in $(seq "$SEEDS"); do
        row="| $seed"
        values=()
        for bytes in 65536 524288; do
            python3 "$SHAPES" random "$seed" "$bytes" >"$OUT/random.md"
            python3 - "$OUT/random.md" "$OUT/random.json" <<'PY'
import json, sys
sys.path.insert(0, "Benchmarks/hostile")
import shapes
data = shapes.dataset(1, ["nested_brackets"])
data["posts"][0]["contents"] = open(sys.argv[1], encoding="utf-8").read()
json.dump(data, open(sys.argv[2], "w"), ensure_ascii=False)
PY
            export_seconds "$OUT/random.json" >/dev/null
            if grep -q 'rendered as plain text' "$OUT/export.log"; then
                row="$row | plain text"
                values+=("")
            else
                per=$(python3 -c "print(round(($(ir "$OUT/random.md") - $base) / $bytes))")
                row="$row | $per"
                values+=("$per")
            fi
        done
        if [ -n "${values[0]}" ] && [ -n "${values[1]}" ]; then
            ratio=$(python3 -c "print(f'{${values[1]} / max(1, ${values[0]}):.2f}')")
            row="$row | $ratio |"
            # The cost per byte may not grow with the size beyond a small factor.
            if python3 -c "import sys; sys.exit(0 if $ratio > $MAX_RATIO else 1)"; then grown="$grown $seed"; fi
        else
            row="$row | – |"
        fi
        echo "$row"
    done
    if [ -n "$grown" ]; then
        echo "FAILED: at 512 KB the cost per byte is over $MAX_RATIO times the cost at 64 KB for seed(s)$grown" >&2
        exit 1
    fi
    exit 0
fi

# One ordinary post: the fixed cost of an export, subtracted from every shape's.
python3 - "$OUT/ordinary.json" <<'PY'
import json, sys
sys.path.insert(0, "Benchmarks/hostile")
import shapes
data = shapes.dataset(1, ["nested_brackets"])
data["posts"][0]["contents"] = "**ordinary** post"
json.dump(data, open(sys.argv[1], "w"))
PY
base=$(export_seconds "$OUT/ordinary.json")
echo "Export of one ordinary post: $base s (subtracted below)" >&2
echo "| shape | bytes | seconds | rendered as |"
echo "|---|---|---|---|"
for name in $(python3 "$SHAPES" list); do
    python3 "$SHAPES" dataset "$BYTES" "$OUT/one.json" "$name"
    seconds=$(export_seconds "$OUT/one.json")
    if grep -q 'rendered as plain text' "$OUT/export.log"; then kind="plain text"; else kind="Markdown"; fi
    echo "| $name | $BYTES | $(python3 -c "print(f'{max(0, $seconds - $base):.2f}')") | $kind |"
done
python3 "$SHAPES" dataset "$BYTES" "$OUT/corpus.json"
echo
echo "Corpus of $(python3 "$SHAPES" list | wc -l) posts of $BYTES bytes, one export: $(export_seconds "$OUT/corpus.json") s"

# Big and odd posts (issue 25 point 2): time and peak memory of a whole export of each, less one ordinary post's.
base_rss=$( (export_seconds "$OUT/ordinary.json" "/usr/bin/time -f %M -o $OUT/rss.txt" >/dev/null) && cat "$OUT/rss.txt")
echo
echo "| big or odd post | seconds | peak RSS (MB, ordinary post: $((base_rss / 1024))) | rendered as |"
echo "|---|---|---|---|"
for name in $(python3 "$SHAPES" list-odd); do
    python3 "$SHAPES" dataset 0 "$OUT/odd.json" "$name"
    seconds=$(export_seconds "$OUT/odd.json" "/usr/bin/time -f %M -o $OUT/rss.txt")
    if grep -q 'rendered as plain text' "$OUT/export.log"; then kind="plain text"; else kind="Markdown"; fi
    echo "| $name | $(python3 -c "print(f'{max(0, $seconds - $base):.2f}')") | $(($(cat "$OUT/rss.txt") / 1024)) | $kind |"
done
