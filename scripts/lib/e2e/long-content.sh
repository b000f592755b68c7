# e2e: long content: a long error at 60×16, a 40-environment menu. Sourced by scripts/e2e, in order, with scripts/lib/e2e/helpers.sh.
# shellcheck shell=bash

# --- long content: a long error at 60×16, a 40-environment menu ---------------------
long_path=$(printf 'a-rather-long-path-segment-%d/' $(seq 1 12))
cat >"$work/long.json" <<JSON
{"environments": [
  {"name": "faraway", "description": "A server nobody runs, behind a very long address.", "source": "http://127.0.0.1:9/$long_path", "timeoutSeconds": 3}
]}
JSON
tm kill-session -t e2e >/dev/null 2>&1
start_app --environments "$work/long.json"
tm resize-window -t e2e -x 60 -y 16
check "60×16: a long error shows on the error screen with a scroll indicator" wait_for 60 "scroll"
check "60×16: the error box shows the failed step, not the too-small notice" \
    wait_until 5 eval 'shows_all "Initialization failed" && ! grep -q "too small" <<<"$last"'
save_capture error-60x16
check "60×16: the cursor is on the error message's first character" wait_until 5 cursor_on "$error_focus"
range=$(grep -oE "lines 1-[0-9]+ of [0-9]+" <<<"$last")
shown=${range#lines 1-}; shown=${shown%% *}; total=${range##* }
if [ -n "$range" ] && [ "$total" -ge $(( shown + 3 )) ]; then
    wheel down "$(cell_of "$error_focus")"
    check "60×16: the wheel down scrolls the error text three lines ($range → lines 4-$(( shown + 3 )))" \
        wait_for 10 "lines 4-$(( shown + 3 )) of $total"
    wheel up "$(cell_of "$error_focus")"
    check "60×16: the wheel up scrolls back to $range" wait_for 10 "$range"
else
    fail "60×16: the error box's border shows \"lines 1-N of M\" with at least three more lines"
fi
tm send-keys -t e2e End
check "60×16: End scrolls to the end of the error: the hint shows" wait_for 10 "Hint:"
save_capture error-60x16-end
tm send-keys -t e2e q
check "60×16: q from the error screen exits with status 1" wait_for 30 "EXIT=1"

{
    printf '{"environments": [\n'
    for i in $(seq 0 39); do
        sep=","; [ "$i" -eq 39 ] && sep=""
        printf '  {"name": "env-%d", "description": "Environment number %d.", "source": "embedded"}%s\n' "$i" "$i" "$sep"
    done
    printf ']}\n'
} >"$work/forty.json"
app_env="WEFT_MOUSE=off WEFT_A11Y=on" start_app --environments "$work/forty.json"
check "40 environments: the app starts in the first" wait_for 60 "Cat fact"
check "WEFT_MOUSE=off: mouse reporting stays off" wait_until 5 display_is '#{mouse_sgr_flag},#{mouse_standard_flag}' 0,0
check "WEFT_A11Y=on: the cursor is shown" wait_until 5 display_is '#{cursor_flag}' 1
tm send-keys -t e2e e
check "40 environments: the menu shows its position" wait_for 10 "1/40"
tm send-keys -t e2e End
check "40 environments: End highlights the last" wait_match 10 "› +env-39"
check "40 environments: the indicator says 40/40" wait_for 10 "40/40"
save_capture menu-40-end
tm send-keys -t e2e PageUp
check "40 environments: PgUp moves one page up" wait_match 10 "› +env-29"
tm send-keys -t e2e Home
check "40 environments: Home returns to the first" wait_match 10 "› ● env-0"
tm send-keys -t e2e Escape q
check "40 environments: q exits with status 0" wait_for 30 "EXIT=0"
