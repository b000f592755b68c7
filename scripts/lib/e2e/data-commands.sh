# e2e: history, environments and settings from the command line, and weft graph through Graphviz. Sourced by scripts/e2e, in order, with scripts/lib/e2e/helpers.sh.
# shellcheck shell=bash

# --- history, environments and settings from the command line ---------------------------
cmd_env=(env XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" LANG=C.UTF-8)
out=$("${cmd_env[@]}" "$bin" history 2>&1); status=$?
last=$out
check "weft history lists the facts shown so far, with a total" \
    bash -c '[ "$1" -eq 0 ] && grep -q "embedded" <<<"$2" && grep -qE "^[0-9]+ facts?, shown [0-9]+ times? in all" <<<"$2"' _ "$status" "$out"
out=$("${cmd_env[@]}" "$bin" history --json --limit 1 2>&1); status=$?
last=$out
check "weft history --json --limit 1 prints one JSON object" \
    bash -c '[ "$1" -eq 0 ] && [ "$(wc -l <<<"$2")" -eq 1 ] && python3 -c "import json,sys; d=json.loads(sys.argv[1]); assert {\"fact\",\"timesSeen\",\"lastSeen\",\"environment\"} <= set(d)" "$2"' _ "$status" "$out"
history_file="$work/data/weft/history.sqlite"
history_sum=$(sha256sum <"$history_file")
out=$("${cmd_env[@]}" "$bin" history --limit 2 2>&1); status=$?
last=$out
check "weft history opens the file read-only: listing leaves it byte for byte" \
    bash -c '[ "$1" -eq 0 ] && [ "$2" = "$(sha256sum <"$3")" ]' _ "$status" "$history_sum" "$history_file"
# The history file through the sqlite3 shell, which no weft code is part of: sound, marked as
# weft's, and holding what `weft history` counted.
summary=$("${cmd_env[@]}" "$bin" history 2>&1 | tail -n 1)
last="weft history: $summary
sqlite3: $(sqlite3 -readonly "$history_file" 'PRAGMA integrity_check; PRAGMA application_id; SELECT COUNT(*) FROM fact; SELECT COUNT(*) FROM sighting;' 2>&1 | tr '\n' ' ')"
check "sqlite3 reads the history file: integrity ok, application id \"WEFT\", the facts and sightings weft history counts" \
    bash -c 'facts=${1%% fact*}; shown=${1#*shown }; shown=${shown%% time*}
        [ "${2#sqlite3: }" = "ok $((0x57454654)) $facts $shown " ]' _ "$summary" "${last#*$'\n'}"
out=$("${cmd_env[@]}" "$bin" history clear </dev/null 2>&1); status=$?
last=$out
check "weft history clear without a terminal refuses (status 2) and names --yes" \
    bash -c '[ "$1" -eq 2 ] && grep -q -- "--yes" <<<"$2"' _ "$status" "$out"

mkdir -p "$work/config/weft"
"${cmd_env[@]}" "$bin" environments --template >"$work/config/weft/environments.json"
out=$("${cmd_env[@]}" "$bin" environments 2>&1); status=$?
last=$out
check "weft environments adds the user file's environments, naming each one's file" \
    bash -c '[ "$1" -eq 0 ] && grep -q "^  local .*$2/config/weft/environments.json" <<<"$3" && grep -q "^\* embedded .*(bundled)" <<<"$3"' _ "$status" "$work" "$out"
out=$("${cmd_env[@]}" "$bin" environments --json 2>&1); status=$?
last=$out
check "weft environments --json: one object per environment, 6 in all" \
    bash -c '[ "$1" -eq 0 ] && [ "$(wc -l <<<"$2")" -eq 6 ]' _ "$status" "$out"

printf '{"env": "broken", "logLevel": "info"}\n' >"$work/config/weft/config.json"
out=$("${cmd_env[@]}" "$bin" config 2>&1); status=$?
last=$out
check "weft config: env from config.json, database by default" \
    bash -c '[ "$1" -eq 0 ] && grep -qE "^env +broken +\[config.json\]" <<<"$2" && grep -qE "^database .*\[default\]" <<<"$2"' _ "$status" "$out"
out=$("${cmd_env[@]}" WEFT_ENV=embedded "$bin" config 2>&1)
last=$out
check "weft config: WEFT_ENV beats config.json" bash -c 'grep -qE "^env +embedded +\[environment variable\]" <<<"$1"' _ "$out"
out=$("${cmd_env[@]}" WEFT_ENV=embedded "$bin" config --env staging 2>&1)
last=$out
check "weft config: --env beats WEFT_ENV" bash -c 'grep -qE "^env +staging +\[flag\]" <<<"$1"' _ "$out"
out=$("${cmd_env[@]}" timeout 60 "$bin" --plain </dev/null 2>&1); status=$?
last=$out
check "config.json's env is used: --plain starts broken and exits 1" \
    bash -c '[ "$1" -eq 1 ] && grep -q "broken" <<<"$2"' _ "$status" "$out"
out=$("${cmd_env[@]}" timeout 60 "$bin" --plain --env local </dev/null 2>&1); status=$?
last=$out
check "a user environment is selectable with --env (local: connection refused, exit 1)" \
    bash -c '[ "$1" -eq 1 ] && grep -q "127.0.0.1:8089" <<<"$2"' _ "$status" "$out"
out=$("${cmd_env[@]}" "$bin" history clear --yes 2>&1); status=$?
last=$out
check "weft history clear --yes deletes the facts" bash -c '[ "$1" -eq 0 ] && grep -q "^deleted " <<<"$2"' _ "$status" "$out"
rm -f "$work/config/weft/config.json"
last=$("$bin" --help 2>&1)
check "--help names the settings, environments and history files, in-app keys and exit codes" \
    bash -c 'grep -q "config.json" <<<"$1" && grep -q "environments.json" <<<"$1" && grep -q "history.sqlite" <<<"$1" && grep -q "h history" <<<"$1" && grep -q "PgUp PgDn Home End" <<<"$1" && tr "\n" " " <<<"$1" | grep -q "130 interrupted"' _ "$last"

# --- weft graph through Graphviz, a reader nobody here wrote ----------------------------------
out=$("$bin" graph 2>&1); status=$?
svg=$(dot -Tsvg <<<"$out" 2>"$work/dot.err"); dot_status=$?
last="$out
$(cat "$work/dot.err")"
check "weft graph is DOT Graphviz draws without a warning: a box per service, an arrow per dependency" \
    bash -c '[ "$1" -eq 0 ] && [ "$2" -eq 0 ] && [ ! -s "$3" ] &&
        [ "$(grep -c "\[label=" <<<"$4")" -gt 3 ] &&
        [ "$(grep -c "class=\"node\"" <<<"$5")" -eq "$(grep -c "\[label=" <<<"$4")" ] &&
        [ "$(grep -c "class=\"edge\"" <<<"$5")" -eq "$(grep -c " -> " <<<"$4")" ]' \
    _ "$status" "$dot_status" "$work/dot.err" "$out" "$svg"
