# e2e: one self-contained binary. Sourced by scripts/e2e, in order, with scripts/lib/e2e/helpers.sh.
# shellcheck shell=bash

# --- one self-contained binary -------------------------------------------------------
last=$(grep -ac 'Weft_WeftAssets.resources' "$bin")
check "the binary names no resource bundle (Assets/ is compiled in)" test "$last" -eq 0
mkdir -p "$work/copy" "$work/elsewhere"
cp "$bin" "$work/copy/weft"
out=$(cd "$work/elsewhere" && env -i PATH=/usr/bin:/bin HOME="$work/home" LANG=C.UTF-8 ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} timeout 60 "$work/copy/weft" --plain </dev/null 2>&1); status=$?
last=$out
check "a copy of the binary in another folder prints a fact (no .build needed)" \
    bash -c '[ "$1" -eq 0 ] && grep -q "^fact: " <<<"$2"' _ "$status" "$out"
