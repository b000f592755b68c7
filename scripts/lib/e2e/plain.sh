# e2e: plain mode. Sourced by scripts/e2e, in order, with scripts/lib/e2e/helpers.sh.
# shellcheck shell=bash

# --- plain mode -------------------------------------------------------------------
last=$("$bin" --help 2>&1)
check "--help lists --plain and --json" bash -c 'grep -q -- "--plain" <<<"$1" && grep -q -- "--json" <<<"$1"' _ "$last"
plain_env=(env XDG_DATA_HOME="$work/data" LANG=C.UTF-8)
out=$("${plain_env[@]}" timeout 60 "$bin" --plain </dev/null 2>&1); status=$?
last=$out
check "--plain exits 0 and prints a fact" bash -c '[ "$1" -eq 0 ] && [ -n "$2" ] && ! grep -q $'"'"'\e\['"'"' <<<"$2"' _ "$status" "$out"
out=$("${plain_env[@]}" timeout 60 "$bin" --plain --env broken </dev/null 2>&1); status=$?
last=$out
check "--plain --env broken exits 1" test "$status" -eq 1
out=$("${plain_env[@]}" timeout 60 "$bin" --plain --env nope </dev/null 2>&1); status=$?
last=$out
check "--plain --env nope exits 2" test "$status" -eq 2
started=$(now_ms)
out=$("${plain_env[@]}" timeout 60 "$bin" --plain --startup-deadline 1 --environments "$work/slow.json" </dev/null 2>&1); status=$?
took=$(( $(now_ms) - started ))
last=$out
check "--plain --startup-deadline 1, slow environment: exit 1 within seconds, naming the step that held it up" \
    bash -c '[ "$1" -eq 1 ] && [ "$2" -lt 10000 ] \
        && grep -qF "the 1.0 s start-up deadline passed while step \"Fetch the first cat fact\"" <<<"$3" \
        && grep -qF "'"'"'Fetch the first cat fact'"'"' was still going after" <<<"$3" \
        && grep -qF -- "--startup-deadline SECONDS" <<<"$3"' _ "$status" "$took" "$out"
out=$("${plain_env[@]}" WEFT_STARTUP_DEADLINE=1.5 timeout 60 "$bin" --json --environments "$work/slow.json" </dev/null 2>/dev/null); status=$?
last=$out
check "--json with WEFT_STARTUP_DEADLINE=1.5: exit 1, the failed object's deadline names the pending fetch" \
    bash -c '[ "$1" -eq 1 ] && python3 -c "
import json, sys
d = json.loads(sys.argv[1].splitlines()[-1])
assert d[\"event\"] == \"failed\" and d[\"deadline\"][\"ms\"] == 1500, d
p = d[\"deadline\"][\"pending\"][0]
assert p[\"id\"] == \"fact\" and p[\"step\"] == \"Fetch the first cat fact\" and p[\"attempt\"] == 1, p
assert p[\"goingForMs\"] > 0, p" "$2"' _ "$status" "$out"
out=$("${plain_env[@]}" timeout 60 "$bin" --plain --startup-deadline soon </dev/null 2>&1); status=$?
last=$out
check "--startup-deadline soon exits 2 naming the setting and what it expects" \
    bash -c '[ "$1" -eq 2 ] && grep -q "startupDeadline from the flag layer" <<<"$2" && grep -q "positive number of seconds" <<<"$2"' _ "$status" "$out"

