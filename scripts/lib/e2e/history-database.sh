# e2e: the history database (never another program's file; shared safely), faults, weft startup and budgets. Sourced by scripts/e2e, in order, with scripts/lib/e2e/helpers.sh.
# shellcheck shell=bash

# --- the history database: never another program's file; shared safely -------------
db_dir="$work/databases"
mkdir -p "$db_dir"
# Another program's SQLite database, written with Python's sqlite3 (no weft code involved).
python3 - "$db_dir/other.sqlite" "$db_dir/other-with-fact.sqlite" <<'PY'
import sqlite3, sys
for path, tables in ((sys.argv[1], ["accounts", "invoices", "notes"]), (sys.argv[2], ["fact", "notes"])):
    db = sqlite3.connect(path)
    for table in tables:
        db.execute(f"CREATE TABLE {table} (id INTEGER PRIMARY KEY, value TEXT)")
        db.execute(f"INSERT INTO {table} (value) VALUES ('keep me')")
    db.commit()
    db.close()
PY
for name in other other-with-fact; do
    file="$db_dir/$name.sqlite"
    before=$(sha256sum "$file" | cut -d' ' -f1)
    out=$("${plain_env[@]}" timeout 60 "$bin" --plain --database "$file" </dev/null 2>&1); status=$?
    last=$out
    check "--database $name.sqlite (another program's): the fact unrecorded, exit 3 naming the file and its tables" \
        bash -c '[ "$1" -eq 3 ] && grep -qF "$2 is another program'"'"'s SQLite database, not a weft history" <<<"$3" \
            && grep -q "its tables: " <<<"$3" && grep -q "✗ Open the history database" <<<"$3" \
            && grep -q "^fact: " <<<"$3" && grep -q "^weft: history unavailable" <<<"$3"' _ "$status" "$file" "$out"
    after=$(sha256sum "$file" | cut -d' ' -f1)
    check "$name.sqlite is byte for byte unchanged, no -wal/-shm/-journal beside it" \
        bash -c '[ "$1" = "$2" ] && ! ls "$3"-* >/dev/null 2>&1' _ "$before" "$after" "$file"
done

# The full-screen app on another program's database: the fact, with a degraded notice.
start_app --database "$db_dir/other.sqlite"
check "unusable history: the main screen shows the fact and says the history is unavailable" \
    wait_for 60 "history unavailable — r retries"
check "unusable history: the fact is marked not recorded" wait_until 5 shows_all "not recorded"
save_capture degraded-main
tm send-keys -t e2e d
check "d: the last run's timeline marks the critical chain" wait_for 10 "critical chain"
save_capture degraded-diagnostics
tm send-keys -t e2e Escape r
check "r starts up again and comes back to the main screen, still degraded" wait_for 60 "history unavailable — r retries"
tm send-keys -t e2e q
check "q from a degraded main screen exits 0" wait_for 30 "EXIT=0"

# A service whose shutdown never returns (issue 59): the embedded server with the
# stuck-shutdown fault answers as usual, but its disposal never ends. q must still exit once
# the run's 5 s shutdown deadline has abandoned it: at the end of the server's share of it
# (the time left over the disposals left: 2.5 s, with the HTTP client still to stop).
cat >"$work/stuck.json" <<'JSON'
{"environments": [
  {"name": "stuck", "description": "Bundled server that never stops.", "source": "embedded", "fault": "stuck-shutdown"}
]}
JSON
start_app --environments "$work/stuck.json" --database "$db_dir/stuck.sqlite"
check "stuck-shutdown: the main screen shows a fact" wait_for 60 "Cat fact"
quit_started=$(now_ms)
tm send-keys -t e2e q
check "stuck-shutdown: q exits with status 0 though the server never stops" wait_for 30 "EXIT=0"
quit_ms=$(( $(now_ms) - quit_started ))
last="q took $quit_ms ms"
check "stuck-shutdown: q waited out the server's share of the deadline, then exited (2 s to 10 s: $quit_ms ms)" \
    bash -c '[ "$1" -ge 2000 ] && [ "$1" -le 10000 ]' _ "$quit_ms"

# weft startup: the critical chain and blame, as text and JSON; --trace-file writes a Chrome trace.
out=$("${plain_env[@]}" timeout 60 "$bin" startup --database "$db_dir/startup.sqlite" </dev/null 2>&1); status=$?
last=$out
check "weft startup prints the critical chain ending in a step, and the blame list, exit 0" \
    bash -c '[ "$1" -eq 0 ] && grep -q "^critical chain:" <<<"$2" && grep -q "^blame:" <<<"$2" \
        && grep -q "└─ Load settings @" <<<"$2"' _ "$status" "$out"
out=$("${plain_env[@]}" timeout 60 "$bin" startup --json --database "$db_dir/other.sqlite" </dev/null 2>/dev/null); status=$?
last=$out
check "weft startup --json on an unusable history: one object, outcome degraded, exit 3" \
    bash -c '[ "$1" -eq 3 ] && python3 -c "import json,sys; d=json.loads(sys.argv[1]); assert d[\"outcome\"]==\"degraded\" and d[\"criticalChain\"][0]==\"settings\", d" "$2"' \
    _ "$status" "$out"
out=$("${plain_env[@]}" timeout 60 "$bin" startup --database "$db_dir/startup.sqlite" </dev/null 2>&1); status=$?
last=$out
check "weft startup says when weft was ready and when every step had ended; health ran after ready" \
    bash -c '[ "$1" -eq 0 ] && grep -q "^weft was ready in environment \"embedded\" in .*; every step had ended at " <<<"$2" \
        && grep -q "Check service health. ran after ready" <<<"$2" \
        && grep -q "Check service health (after ready)" <<<"$2"' _ "$status" "$out"
# Launch budgets (issue 59): weft's own passes; a limit the fact step cannot keep fails with 4.
out=$("${plain_env[@]}" timeout 120 "$bin" startup --runs 3 --budget Assets/startup-budget.json \
    --database "$db_dir/startup.sqlite" </dev/null 2>&1); status=$?
last=$out
check "weft startup --runs 3 --budget Assets/startup-budget.json: within budget, exit 0" \
    bash -c '[ "$1" -eq 0 ] && grep -q "^start-up budget over 3 runs" <<<"$2" && grep -q "^within budget" <<<"$2" \
        && grep -q "^over 3 runs: ready median" <<<"$2"' _ "$status" "$out"
printf '{"version": 1, "steps": {"fact": {"medianMs": 0}}}' >"$db_dir/tight-budget.json"
out=$("${plain_env[@]}" timeout 120 "$bin" startup --runs 2 --budget "$db_dir/tight-budget.json" \
    --database "$db_dir/startup.sqlite" </dev/null 2>&1); status=$?
last=$out
check "weft startup --budget with a limit the fact cannot keep: exit 4, the step named with the fix" \
    bash -c '[ "$1" -eq 4 ] && grep -q "✗ step fact" <<<"$2" \
        && grep -q "step fact: the median is .* over its limit of 0 ms. Make it faster, or" <<<"$2"' _ "$status" "$out"
# Start-up planned from the container (issue 69): weft startup names the planned services and the
# steps that made them; a budget its planned services alone cannot keep is said before any run.
out=$("${plain_env[@]}" timeout 60 "$bin" startup --database "$db_dir/startup.sqlite" </dev/null 2>&1); status=$?
last=$out
check "weft startup names the services planned from the container, the steps that made them, and what it left" \
    bash -c '[ "$1" -eq 0 ] && grep -q "^planned from the container" <<<"$2" \
        && grep -qE "^  FactService +Connect the fact service \(after FactServer, RunHTTPClient\)$" <<<"$2" \
        && grep -qE "^  HistoryDatabase +Open the history database$" <<<"$2" \
        && grep -q "^left to their first use: Environment$" <<<"$2"' _ "$status" "$out"
out=$("${plain_env[@]}" timeout 60 "$bin" startup --json --database "$db_dir/startup.sqlite" </dev/null 2>/dev/null); status=$?
last=$out
check "weft startup --json lists the planned services with their steps' ids, and each step ran" \
    bash -c '[ "$1" -eq 0 ] && python3 -c "
import json, sys
d = json.loads(sys.argv[1])
planned = {p[\"service\"]: p[\"step\"] for p in d[\"planned\"]}
assert planned == {\"FactServer\": \"server\", \"HistoryDatabase\": \"history\", \"RunHTTPClient\": \"client\", \"FactService\": \"service\"}, planned
ran = {s[\"id\"]: s[\"outcome\"] for s in d[\"steps\"]}
assert all(ran[step] == \"finished\" for step in planned.values()), ran
" "$2"' _ "$status" "$out"
printf '{"version": 1, "ready": {"medianMs": 100}, "steps": {"history": {"medianMs": 90}, "server": {"medianMs": 50}, "service": {"medianMs": 60}}}' \
    >"$db_dir/plan-budget.json"
out=$("${plain_env[@]}" timeout 120 "$bin" startup --budget "$db_dir/plan-budget.json" --database "$db_dir/startup.sqlite" \
    </dev/null 2>&1); status=$?
last=$out
check "weft startup --budget the planned chain cannot keep: exit 4, the chain named before the run" \
    bash -c '[ "$1" -eq 4 ] && grep -q "^weft startup: the plan is over budget before it runs: ready (chain: server → service): the median is 110 ms, over its limit of 100 ms" <<<"$2"' \
    _ "$status" "$out"
printf '{"version": 1, "ready": {"medianMS": 5}}' >"$db_dir/typo-budget.json"
out=$("${plain_env[@]}" timeout 60 "$bin" startup --budget "$db_dir/typo-budget.json" </dev/null 2>&1); status=$?
last=$out
check "weft startup --budget with a typo: exit 2, the file, the key and the suggestion" \
    bash -c '[ "$1" -eq 2 ] && grep -qF "weft startup: the budget file $3: ready.medianMS: unknown key \"medianMS\": did you mean \"medianMs\"?" <<<"$2"' \
    _ "$status" "$out" "$db_dir/typo-budget.json"
trace="$db_dir/trace.json"
out=$("${plain_env[@]}" timeout 60 "$bin" --plain --trace-file "$trace" --database "$db_dir/startup.sqlite" </dev/null 2>&1); status=$?
last="$out
$(head -c 2000 "$trace" 2>&1)"
check "--trace-file writes the run as Chrome trace events: one X event per step, the chain marked" \
    python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
x = [e for e in d["traceEvents"] if e["ph"] == "X"]
assert len(x) == 10 and all(isinstance(e["ts"], int) and isinstance(e["dur"], int) for e in x), x
assert any(e["args"]["critical"] for e in x) and all("after" in e["args"] for e in x)' "$trace"
out=$("${plain_env[@]}" timeout 60 "$bin" --plain --trace-file "$db_dir/no/such/dir/t.json" </dev/null 2>&1); status=$?
last=$out
check "--trace-file in a folder that does not exist exits 2 before starting" \
    bash -c '[ "$1" -eq 2 ] && grep -q "Cannot write the trace file" <<<"$2" && ! grep -q "^fact:" <<<"$2"' _ "$status" "$out"

# 20 weft processes started together on one new history file: all succeed, all are counted.
shared="$db_dir/shared.sqlite"
pids=()
for i in $(seq 1 20); do
    "${plain_env[@]}" timeout 120 "$bin" --plain --database "$shared" </dev/null >"$db_dir/run-$i.out" 2>&1 &
    pids+=("$!")
done
statuses=""
for pid in "${pids[@]}"; do wait "$pid"; statuses+="$? "; done
last="statuses: $statuses
$(cat "$db_dir"/run-*.out | grep -v '✓' | head -20)"
check "20 concurrent weft --plain on one history file all exit 0" bash -c '[ "$(tr -d " 0" <<<"$1")" = "" ]' _ "$statuses"
sightings=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT COUNT(*) FROM sighting").fetchone()[0])' "$shared")
last="sightings: $sightings"
check "the shared history counts all 20 runs" test "$sightings" -eq 20

for option in --database --environments; do
    out=$("${plain_env[@]}" timeout 60 "$bin" --plain "$option" "" </dev/null 2>&1); status=$?
    last=$out
    check "$option \"\" exits 2 and says the path is empty" \
        bash -c '[ "$1" -eq 2 ] && grep -qF -- "$2: the path is empty" <<<"$3"' _ "$status" "$option" "$out"
done

