# e2e: every terminal: TERM, locales, NO_COLOR. Sourced by scripts/e2e, in order, with scripts/lib/e2e/helpers.sh.
# shellcheck shell=bash

# --- every terminal ------------------------------------------------------------------
start_app_as tmux-256color C
check "LANG=C: splash → main screen with a fact" wait_for 60 "Cat fact"
ascii_main() { grep -q "n next" <<<"$1" && grep -q "weft - embedded" <<<"$1" && only_ascii "$1"; }
check "LANG=C: the main screen is ASCII, with its key hints" ascii_main "$last"
save_capture lang-c-main
tm send-keys -t e2e e
check "LANG=C: the menu marks the current environment with * and the selection with >" wait_for 10 "> * embedded"
ascii_menu() { grep -qF "* current   > selected" <<<"$1" && only_ascii "$1"; }
check "LANG=C: the menu's legend and every row are ASCII" ascii_menu "$last"
save_capture lang-c-menu
tm send-keys -t e2e j
check "LANG=C: j moves the > to staging, no stale marks left" wait_match 10 "^.*> +staging"
check "LANG=C: exactly one row is selected after moving" wait_until 5 eval '[ "$(grep -c "> " <<<"$last")" -eq 2 ]'
tm send-keys -t e2e Escape q
check "LANG=C: q exits with status 0" wait_for 30 "EXIT=0"

# NO_COLOR: the same screens with no colour at all (bold and reverse only); the error screen
# marks the failure in words and with ✗. capture-pane -e keeps the SGR escapes to look at.
capture_sgr() { tm capture-pane -p -e -t e2e 2>/dev/null; }
no_colour() { ! grep -qE $'\e\\[[0-9;]*(3[0-7]|9[0-7]|4[0-7]|10[0-7]|38;5;[0-9]+|48;5;[0-9]+)[;m]' <<<"$(capture_sgr)"; }
coloured() { grep -qE $'\e\\[[0-9;]*(3[0-7]|4[0-7]|9[0-7])[;m]' <<<"$(capture_sgr)"; }
start_app
check "colour: the main screen shows" wait_for 60 "Cat fact"
check "colour: by default the screen has colour escapes (what the NO_COLOR check looks for)" coloured
app_env="NO_COLOR=1" start_app --env broken
check "NO_COLOR: the error screen shows" wait_for 60 "Initialization failed"
check "NO_COLOR: no colour escape anywhere on the error screen" no_colour
check "NO_COLOR: the failure is marked in words and with ✗" wait_until 5 shows_all "✗ Fetch" "failed after"
tm send-keys -t e2e q
check "NO_COLOR: q from the error screen exits with status 1" wait_for 30 "EXIT=1"

start_app_as dumb C.UTF-8
check "TERM=dumb: plain output with a one-line notice, exit 0" wait_for 60 "EXIT=0"
check "TERM=dumb: the notice names the terminal, then steps and the fact follow" \
    bash -c 'grep -q "\"dumb\" cannot place the cursor" <<<"$1" && grep -q "\[sync\]" <<<"$1" && grep -q "^fact: " <<<"$1"' _ "$last"

for term in linux vt100; do
    start_app_as "$term" C.UTF-8
    check "TERM=$term: splash → main screen with a fact" wait_for 60 "Cat fact"
    tm send-keys -t e2e q
    check "TERM=$term: q exits with status 0" wait_for 30 "EXIT=0"
    check "TERM=$term: the screen is cleared after quitting, the prompt at the top" \
        bash -c '! grep -q "Cat fact\|n next" <<<"$1" && [ "$(head -n 1 <<<"$1")" = "EXIT=0" ]' _ "$last"
done

