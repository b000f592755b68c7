# e2e: the command line inside the app (with --a11y, --no-mouse). Sourced by scripts/e2e, in order, with scripts/lib/e2e/helpers.sh.
# shellcheck shell=bash

# --- the command line (with --a11y: the cursor drawn; --no-mouse: no mouse reporting) -------
start_app --a11y --no-mouse
check "--a11y --no-mouse: splash → main screen with a fact" wait_for 60 "Cat fact"
check "--no-mouse: mouse reporting stays off" wait_until 5 display_is '#{mouse_sgr_flag},#{mouse_standard_flag}' 0,0
check "--a11y: the cursor is shown" wait_until 5 display_is '#{cursor_flag}' 1
check "--a11y: the cursor is on the fact's first character" wait_until 5 cursor_on "$fact_focus"
tm send-keys -t e2e :
tm send-keys -t e2e -l en
tm send-keys -t e2e Tab
check ":en Tab completes the command name to \"env \"" wait_until 5 prompt_is "env "
tm send-keys -t e2e Tab
check "Tab after \"env \" lists the environments above the prompt" \
    wait_until 5 above_prompt_has "embedded  staging  production  broken"
tm send-keys -t e2e -l b
tm send-keys -t e2e Tab
check "b Tab completes the environment: \"env broken\"" wait_until 5 prompt_is "env broken"
tm send-keys -t e2e Enter
check ":env broken switches to broken and starts up again: the error screen" \
    wait_until 60 shows_all "Initialization failed" " weft · broken "
check "the command line closes after Enter" bash -c '! grep -q "^:" <<<"$1"' _ "$last"
tm send-keys -t e2e :
tm send-keys -t e2e -l retry
tm send-keys -t e2e Enter
check ":retry starts up again (attempt 2)" wait_for 60 "attempt 2"
tm send-keys -t e2e : Up
check "↑ on the command line brings back the last command (retry)" wait_until 5 prompt_is "retry"
tm send-keys -t e2e Up
check "↑ again brings back the one before (env broken)" wait_until 5 prompt_is "env broken"
tm send-keys -t e2e Down
check "↓ goes forward again (retry)" wait_until 5 prompt_is "retry"
tm send-keys -t e2e Escape
check "Esc closes the command line" wait_for 10 "r retry"
tm send-keys -t e2e :
tm send-keys -t e2e -l hstory
tm send-keys -t e2e Enter
check ":hstory says it is unknown and suggests history, above the prompt" \
    wait_until 10 above_prompt_has 'Unknown command "hstory". Did you mean history?'
check "the prompt stays open with the text after an unknown command" wait_until 5 prompt_is "hstory"
tm send-keys -t e2e Escape :
tm send-keys -t e2e -l "env embedded"
tm send-keys -t e2e Enter
check ":env embedded switches back: the main screen" wait_for 60 "Cat fact"
before=$last
tm send-keys -t e2e :
tm send-keys -t e2e -l next
tm send-keys -t e2e Enter
check ":next fetches the next fact" wait_change 30 "$before" "in history"
for command in "history:History · " "diagnostics:Container ·" "help:Commands: type : then one of these"; do
    tm send-keys -t e2e :
    tm send-keys -t e2e -l "${command%%:*}"
    tm send-keys -t e2e Enter
    check ":${command%%:*} opens its screen (${command#*:})" wait_for 10 "${command#*:}"
    tm send-keys -t e2e Escape
    check "Esc after :${command%%:*} returns to the fact" \
        wait_until 10 eval 'shows_all "Cat fact" && ! shows_all "${command#*:}"'
done
tm send-keys -t e2e :
tm send-keys -t e2e -l startup
tm send-keys -t e2e Enter
check ":startup shows the Start-up screen: the critical chain and its steps" \
    wait_until 10 shows_all "Critical chain" "steps decided the" "Start-up"
save_capture startup
tm send-keys -t e2e Escape
check "Esc returns from the Start-up screen to the fact" wait_gone 10 "Critical chain"
tm send-keys -t e2e :
tm send-keys -t e2e -l quit
tm send-keys -t e2e Enter
check ":quit on the main screen exits with status 0" wait_for 30 "EXIT=0"

