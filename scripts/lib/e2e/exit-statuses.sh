# e2e: exit statuses of the full-screen app, Ctrl-C and SIGTERM during the splash, a start-up deadline. Sourced by scripts/e2e, in order, with scripts/lib/e2e/helpers.sh.
# shellcheck shell=bash

# --- exit statuses of the full-screen app ------------------------------------------
start_app --env broken
check "--env broken shows the error screen" wait_for 60 "Initialization failed"
tm send-keys -t e2e q
check "q on the error screen exits with status 1" wait_for 30 "EXIT=1"

start_app --env nowhere
check "--env nowhere exits 2 before the UI starts" wait_for 30 "EXIT=2"
check "--env nowhere names the known environments and draws no screen" \
    bash -c 'grep -q "unknown environment \"nowhere\"" <<<"$1" && grep -q "embedded" <<<"$1" && ! grep -q "Initialization" <<<"$1"' _ "$last"

# --- Ctrl-C and SIGTERM while the splash is up -------------------------------------
start_app --environments "$work/slow.json"
check "slow environment: splash shows steps in progress" wait_for 30 "running"
first=$(capture)
check "the splash animates" wait_change 3 "$first" "running"
tm send-keys -t e2e C-c
check "Ctrl-C during the splash exits with 130" wait_for 30 "EXIT=130"

start_app --environments "$work/slow.json"
check "slow environment again: splash up" wait_for 30 "running"
pid=$(app_pid)
if [ -n "$pid" ]; then kill -TERM "$pid"; fi
check "SIGTERM during the splash exits with 143" wait_for 30 "EXIT=143"

# --- a start-up deadline shorter than the slow environment's fetch ---------------------
start_app --environments "$work/slow.json" --startup-deadline 1
check "--startup-deadline 1, slow environment: the error screen says the start-up ran out of time" \
    wait_for 30 "Start-up ran out of time"
# Until the box is drawn whole: the title can show while the splash below is being redrawn.
check "the deadline's error screen names the step that held it up, the deadline and a hint" \
    wait_until 30 shows_all "✗ Fetch the first cat fact" "still going at the 1.0 s deadline" "Hint:"
save_capture deadline-error
tm send-keys -t e2e q
check "q from the deadline's error screen exits with status 1" wait_for 30 "EXIT=1"

