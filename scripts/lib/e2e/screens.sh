# e2e: the interactive flow in the bundled environments: every screen, its keys, focus, mouse and resizing. Sourced by scripts/e2e, in order, with scripts/lib/e2e/helpers.sh.
# shellcheck shell=bash

# --- interactive flow in the bundled environments -----------------------------------
# Where the cursor parks on each screen (the focus a screen reader follows), as patterns
# for cell_of: the first character of the fact, of the error message (under the step, the
# phase line and a blank line), of the highlighted menu row's name and history row, of the
# first registration and of the first help entry.
fact_focus='Cat fact[^\n]*\n(?:[^\n]*\n)*? *│ +([^\s│])'
error_focus='✗ [^\n]*\n[^\n]*\n[^\n]*\n *│ +([^\s│])'
menu_pointer='› [● ] ([^\s│])'
history_pointer='› (\S)'
diagnostics_focus='│ registration [^\n]*\n *│ (\S)'
help_focus='Keys · [^\n]*\n(?:[^\n]*\n)*? *│ ?([^\s│])'
# hint KEY: the pattern of KEY's hint in the key bar (the row that offers "? help").
hint() { echo '^(?=[^\n]*\? help)[^\n]*?(?<!\S)('"$1"') '; }

start_app
check "splash → main screen with a fact" wait_for 60 "Cat fact"
check "main screen: history line and key hints" wait_until 5 shows_all "in history" "n next"
check "mouse reporting is on by default (SGR 1006 and 1000)" \
    wait_until 5 display_is '#{mouse_sgr_flag},#{mouse_standard_flag}' 1,1
check "the cursor is hidden by default" wait_until 5 display_is '#{cursor_flag}' 0
check "main screen: the cursor is on the fact's first character" wait_until 5 cursor_on "$fact_focus"
main_cursor=$(tm display-message -p -t e2e '#{cursor_x},#{cursor_y}')

before=$last
click "$(right_of "$(cell_of '^$')" 40)"
click "$(right_of "$(cell_of "$fact_focus")" 10)"
check "clicks on an empty row and on the fact's text change nothing" unchanged_for 1 "$before"
check "after those clicks the cursor is still on the fact" display_is '#{cursor_x},#{cursor_y}' "$main_cursor"

tm send-keys -t e2e :
check ": opens the command line on the last row, the cursor shown after the colon" wait_until 5 prompt_is ""
tm send-keys -t e2e -l ne
check "typing moves the cursor after the text" wait_until 5 prompt_is "ne"
tm send-keys -t e2e Escape
check "Esc closes the command line: the key bar is back and the cursor hidden again" \
    wait_until 5 eval 'shows_all "n next" && display_is "#{cursor_flag}" 0'

before=$last
click "$(cell_of "$(hint n)")"
check "a click on \"n next\" in the key bar fetches the next fact" wait_change 30 "$before" "Cat fact"

tm send-keys -t e2e e
check "e opens the environment menu" wait_for 10 "Choose environment"
check "menu: the cursor is on the highlighted environment's name" wait_until 5 cursor_on "$menu_pointer"
tm send-keys -t e2e j j j
check "j j j highlights broken" wait_match 10 "› +broken"
staging=$(cell_of '^ *│ [ ›] [● ] (staging) ')
click "$staging"
check "a click on the staging row highlights it" wait_match 10 "› +staging"
check "menu: the cursor follows the click to staging's name" wait_until 5 cursor_on "$menu_pointer"
wheel down "$staging"
check "the wheel down on the menu moves the highlight one row, to production" wait_match 10 "› +production"
save_capture menu-wheel
double_click "$(cell_of '^ *│ [ ›] [● ] (broken) ')"
check "a double click on broken switches to it: the error screen" wait_for 60 "Initialization failed"
check "error screen names the step, HTTP 500 and a hint" \
    wait_until 5 eval 'shows_all "Fetch the first cat fact" "HTTP 500" "Hint:" && grep -q "^ weft · broken " <<<"$last"'
check "error screen: the cursor is on the error message's first character" wait_until 5 cursor_on "$error_focus"

tm resize-window -t e2e -x 40 -y 12
check "40×12: the error screen is laid out compact" wait_until 10 compact_screen "broken +Error" "Initialization failed"
save_capture compact-error
check "40×12: the cursor is on the error message's first character" wait_until 5 cursor_on "$error_focus"
tm resize-window -t e2e -x 80 -y 24
check "back at 80×24 the error screen has its full key bar" wait_for 10 "e environment   d details"

before=$last
tm send-keys -t e2e r
check "r retries broken and shows the error again (new run, new port)" wait_change 60 "$before" "Initialization failed"
check "the retry is counted on the error screen (attempt 2)" wait_for 10 "attempt 2"

tm send-keys -t e2e d
check "d on the error screen shows diagnostics" wait_for 10 "Last run"
tm send-keys -t e2e Escape
check "Esc returns to the error screen" wait_for 10 "Initialization failed"

tm send-keys -t e2e e
check "e on the error screen opens the menu" wait_for 10 "Choose environment"
tm send-keys -t e2e k k k Enter
check "selecting embedded re-initializes into the main screen" wait_for 60 "Cat fact"

# Compact layouts from 40×12; below that, the too-small notice.
tm resize-window -t e2e -x 40 -y 12
check "40×12: the fact screen: title bar, the Cat fact box, a key bar with ? help and q quit" \
    wait_until 10 compact_screen "embedded +Fact" "Cat fact" "? help" "q quit"
save_capture compact-main
check "40×12: the cursor is on the fact's first character" wait_until 5 cursor_on "$fact_focus"
tm send-keys -t e2e e
check "40×12: the environment menu is laid out compact" wait_until 10 compact_screen "embedded +Environments" "Choose environment"
save_capture compact-menu
check "40×12: menu: the cursor is on the highlighted name" wait_until 5 cursor_on "$menu_pointer"
tm send-keys -t e2e Escape h
check "40×12: the history is laid out compact" wait_until 10 compact_screen "embedded +History" "History · "
save_capture compact-history
check "40×12: history: the cursor is just after the ›" wait_until 5 cursor_on "$history_pointer"
tm send-keys -t e2e Escape d
check "40×12: diagnostics are laid out compact" wait_until 10 compact_screen "embedded +Diagnostics" "Container ·"
save_capture compact-diagnostics
check "40×12: diagnostics: the cursor is on the first registration" wait_until 5 cursor_on "$diagnostics_focus"
# The registrations' box comes first; its indicator "1-S of T" becomes "4-(S+3) of T" after one
# wheel step, or stops at the end of the list.
range=$(grep -oE "1-[0-9]+ of [0-9]+, ↑↓ scroll" <<<"$last" | head -n 1)
shown=${range#1-}; shown=${shown%% *}; total=${range#* of }; total=${total%%,*}
if [ -n "$range" ]; then
    from=$(( total - shown + 1 < 4 ? total - shown + 1 : 4 ))
    wheel down "$(cell_of "$diagnostics_focus")"
    check "40×12: the wheel scrolls the diagnostics three rows (registrations ${range%%,*} → $from-$(( from + shown - 1 )))" \
        wait_for 10 "$from-$(( from + shown - 1 )) of $total, ↑↓ scroll"
else
    fail "40×12: the diagnostics show a scroll indicator for the registrations"
fi
tm send-keys -t e2e Escape '?'
check "40×12: help is laid out compact (its key bar offers Esc ? q close)" \
    wait_until 10 compact_screen "embedded +Fact" "Keys · Fact" "Esc ? q close"
save_capture compact-help
check "40×12: help: the cursor is on the first entry" wait_until 5 cursor_on "$help_focus"
tm send-keys -t e2e Escape
check "40×12: Esc closes help" wait_until 10 compact_screen "embedded +Fact" "Cat fact"
tm resize-window -t e2e -x 39 -y 11
check "39×11 shows the too-small message" wait_until 10 too_small 39 11
tm resize-window -t e2e -x 80 -y 24
check "resize back to 80×24 lays the main screen out again" wait_for 10 "Cat fact"

tm send-keys -t e2e '?'
check "? opens help" wait_for 10 "Keys · Fact"
check "help lists the commands of the command line" wait_until 5 shows_all "Commands: type : then one of these"
check "help: the cursor is on the first entry" wait_until 5 cursor_on "$help_focus"
tm send-keys -t e2e Escape
check "Esc closes help" wait_gone 10 "Keys · Fact"

tm send-keys -t e2e d
check "d shows diagnostics" wait_for 10 "Container ·"
check "diagnostics lists registrations and the last run" wait_until 5 shows_all "RunHTTPClient" "Last run"
check "diagnostics: the cursor is on the first registration" wait_until 5 cursor_on "$diagnostics_focus"
tm send-keys -t e2e Escape
check "Esc returns to the fact" wait_for 10 "Cat fact"

before=$last
tm send-keys -t e2e n
check "n fetches the next fact (the history line changes)" wait_change 30 "$before" "in history"

tm send-keys -t e2e h
check "h opens the history list with the facts shown" wait_for 10 "History · "
# Polled: a capture can catch the frame half drawn, the title row before the rows.
history_columns() { grep -q "last seen" <<<"$last" && grep -q "environment" <<<"$last" && grep -q "› " <<<"$last"; }
check "the history list has its columns and a highlighted row" wait_until 10 history_columns
save_capture history
check "history: the cursor is on the highlighted row, just after the ›" wait_until 5 cursor_on "$history_pointer"
first_row=$(cell_of "$history_pointer")
second_row=$(cell_of '›[^\n]*\n *│   (\S)')
click "$second_row"
check "a click on the second history row highlights it" wait_until 10 cell_is "$history_pointer" "$second_row"
check "history: the cursor follows the click" wait_until 5 cursor_on "$history_pointer"
wheel up "$second_row"
check "the wheel up on the history moves the highlight one row, back to the first" \
    wait_until 10 cell_is "$history_pointer" "$first_row"
seen=$(sed -n "$(( ${second_row#*,} + 1 ))p" <<<"$last" | grep -oE '[0-9]+×' | head -n 1)
seen=${seen%×}
[ "$seen" = 1 ] && seen_text="seen once, last " || seen_text="seen $seen times, last "
double_click "$(right_of "$second_row" 20)"
check "a double click on the second history row opens it (Fact 2 of N, $seen_text…)" \
    wait_until 10 eval 'grep -qE "Fact 2 of [0-9]+" <<<"$last" && shows_all "$seen_text"'
tm send-keys -t e2e Escape
check "Esc closes the fact, back to the list" wait_for 10 "last seen"
tm send-keys -t e2e Escape
check "Esc returns from the history to the fact" wait_for 10 "Cat fact"

tm set-option -g set-clipboard on
tm send-keys -t e2e y
check "y confirms the copy in one line" wait_for 10 "Copied the fact to the clipboard"
clip=$(tm show-buffer 2>/dev/null)
last="clipboard: $clip"
check "y put the fact on the clipboard (tmux received OSC 52)" \
    bash -c '[ -n "$1" ] && grep -qF -- "${1:0:30}" <<<"$2"' _ "$clip" "$(capture)"

tm send-keys -t e2e q
check "q exits with status 0" wait_for 30 "EXIT=0"
check "the UI is gone after quitting" wait_gone 10 "Cat fact"
check "quitting prints nothing else (no fallback to plain output)" \
    bash -c '! grep -qE "^weft:|\[sync\]" <<<"$1"' _ "$last"
tm send-keys -t e2e 'echo clean-$((40 + 2))' Enter
check "the shell after weft reads and runs a command (terminal restored)" wait_for 10 "clean-42"

