# The helpers every e2e check uses (sourced by scripts/e2e, after it built the binary and
# started the tmux server): waiting on the pane, reading cells and the cursor, starting the app.
# shellcheck shell=bash

now_ms() { date +%s%3N; }
capture() { tm capture-pane -p -t e2e 2>/dev/null; }

# wait_for SECONDS TEXT: polls the pane every 0.1 s until it shows TEXT.
wait_for() {
    local deadline=$(( $(now_ms) + $1 * 1000 ))
    while :; do
        last=$(capture)
        grep -qF -- "$2" <<<"$last" && return 0
        [ "$(now_ms)" -ge "$deadline" ] && return 1
        sleep 0.1
    done
}

# wait_match SECONDS REGEX: polls until the pane matches the extended regular expression.
wait_match() {
    local deadline=$(( $(now_ms) + $1 * 1000 ))
    while :; do
        last=$(capture)
        grep -qE -- "$2" <<<"$last" && return 0
        [ "$(now_ms)" -ge "$deadline" ] && return 1
        sleep 0.1
    done
}

# wait_gone SECONDS TEXT: polls until the pane no longer shows TEXT.
wait_gone() {
    local deadline=$(( $(now_ms) + $1 * 1000 ))
    while :; do
        last=$(capture)
        grep -qF -- "$2" <<<"$last" || return 0
        [ "$(now_ms)" -ge "$deadline" ] && return 1
        sleep 0.1
    done
}

# wait_change SECONDS BEFORE TEXT: polls until the pane differs from BEFORE and shows TEXT.
wait_change() {
    local deadline=$(( $(now_ms) + $1 * 1000 ))
    while :; do
        last=$(capture)
        [ "$last" != "$2" ] && grep -qF -- "$3" <<<"$last" && return 0
        [ "$(now_ms)" -ge "$deadline" ] && return 1
        sleep 0.1
    done
}

# save_capture NAME: keeps the last capture as NAME.txt in $WEFT_E2E_CAPTURES, when set.
save_capture() { [ -n "${WEFT_E2E_CAPTURES:-}" ] && printf '%s\n' "$last" >"$WEFT_E2E_CAPTURES/$1.txt"; return 0; }

# wait_until SECONDS COMMAND ARGS...: polls every 0.1 s, capturing the pane into $last, until
# COMMAND (which may read $last) succeeds. Every check of what a screen shows polls, never reads
# the capture another wait left: tmux may capture while the app is still drawing (a help box's
# frame shown, its lines not yet).
wait_until() {
    local deadline=$(( $(now_ms) + $1 * 1000 ))
    shift
    while :; do
        last=$(capture)
        "$@" && return 0
        [ "$(now_ms)" -ge "$deadline" ] && return 1
        sleep 0.1
    done
}

# cell_of REGEX: prints "column,row" (0-based, as tmux counts them) where the Python regular
# expression REGEX first matches in $last — where its first group starts, when it has one.
# The whole capture is searched (re.M), so a pattern can span lines; a wide glyph is 2 cells.
cell_of() {
    python3 -c 'import re, sys, unicodedata
m = re.search(sys.argv[1], sys.argv[2], re.M)
if not m: sys.exit(1)
before = sys.argv[2][:m.start(1) if m.re.groups else m.start()]
line = before[before.rfind("\n") + 1:]
print("%d,%d" % (sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line), before.count("\n")))' "$1" "$last"
}

# display_is FORMAT EXPECTED: tmux's FORMAT for the app's pane is EXPECTED (noted in $last).
display_is() {
    local got
    got=$(tm display-message -p -t e2e "$1")
    [ "$got" = "$2" ] && return 0
    last+=$'\n'"[tmux $1 is \"$got\", expected \"$2\"]"
    return 1
}

# cursor_on REGEX: the terminal cursor is on the cell where REGEX matches in $last.
cursor_on() {
    local want
    want=$(cell_of "$1") || { last+=$'\n'"[no match for $1]"; return 1; }
    display_is '#{cursor_x},#{cursor_y}' "$want"
}

# cell_is REGEX CELL: REGEX matches in $last at CELL ("column,row").
cell_is() { [ "$(cell_of "$1")" = "$2" ] || { last+=$'\n'"[$1 is not at $2]"; return 1; }; }

# Mouse reports in SGR (1006) format, as a terminal sends them, at a 0-based "column,row" CELL.
sgr() { local x=$(( ${2%,*} + 1 )) y=$(( ${2#*,} + 1 )); printf '\e[<%d;%d;%d%s' "$1" "$x" "$y" "$3"; }
click() { tm send-keys -t e2e -l "$(sgr 0 "$1" M)$(sgr 0 "$1" m)"; }
double_click() { tm send-keys -t e2e -l "$(sgr 0 "$1" M)$(sgr 0 "$1" m)$(sgr 0 "$1" M)$(sgr 0 "$1" m)"; }
wheel() { tm send-keys -t e2e -l "$(sgr "$([ "$1" = up ] && echo 64 || echo 65)" "$2" M)"; }
# right_of CELL N: the cell N columns to the right of CELL.
right_of() { echo "$(( ${1%,*} + $2 )),${1#*,}"; }

# unchanged_for SECONDS BEFORE: the pane still shows BEFORE after SECONDS of polling.
unchanged_for() { ! wait_change "$1" "$2" ""; }

# prompt_is TEXT: the command line is open on the last row showing ":TEXT", the cursor just
# after TEXT (and shown, as it is while typing).
prompt_is() {
    local height want
    height=$(tm display-message -p -t e2e '#{pane_height}')
    want=":$1"
    [ "$(sed -n "${height}p" <<<"$last")" = "${want%"${want##*[! ]}"}" ] || { last+=$'\n'"[last row is not \"$want\"]"; return 1; }
    display_is '#{cursor_x},#{cursor_y},#{cursor_flag}' "$(( ${#1} + 1 )),$(( height - 1 )),1"
}

# above_prompt_has TEXT: the rows above the command line (up to three, joined) show TEXT.
above_prompt_has() {
    local height
    height=$(tm display-message -p -t e2e '#{pane_height}')
    # Up to three rows: a long message wraps over them, ending on the row above the prompt.
    sed -n "$(( height - 3 )),$(( height - 1 ))p" <<<"$last" | sed 's/^ //' | tr '\n' ' ' | grep -qF -- "$1"
}

# compact_screen TITLE TEXT [KEYS...]: a screen laid out in the pane (no too-small notice): the
# title bar " weft · TITLE" (an extended regular expression for the rest of the row, such as
# "embedded +Fact"), TEXT somewhere, and each of KEYS (by default "? help") in the key bar on the
# last row.
compact_screen() {
    local height title=$1 text=$2 bar key
    shift 2
    [ "$#" -gt 0 ] || set -- "? help"
    height=$(tm display-message -p -t e2e '#{pane_height}')
    bar=$(sed -n "${height}p" <<<"$last")
    grep -q "Terminal too small" <<<"$last" && return 1
    head -n 1 <<<"$last" | grep -qE -- "^ weft · $title\$" || return 1
    grep -qF -- "$text" <<<"$last" || return 1
    for key in "$@"; do grep -qF -- "$key" <<<"$bar" || return 1; done
}

# shows_all TEXT...: $last shows every TEXT.
shows_all() { local text; for text in "$@"; do grep -qF -- "$text" <<<"$last" || return 1; done; }

# too_small W H: the pane shows the too-small notice for W×H (wrapped or not).
too_small() { tr -s ' \n' '  ' <<<"$last" | grep -qF "Terminal too small: $1×$2, needs 40×12"; }

pass() { passed=$((passed + 1)); echo "ok   $1"; }
fail() {
    failed=$((failed + 1))
    # Where the check is: the feature file and line that called `check` (or `fail` itself).
    local at="${BASH_SOURCE[1]}:${BASH_LINENO[0]}"
    [ "${FUNCNAME[1]:-}" = check ] && at="${BASH_SOURCE[2]}:${BASH_LINENO[1]}"
    echo "FAIL $1 ($at)"
    echo "---- last capture ----"
    printf '%s\n' "$last"
    echo "----------------------"
}
check() { local name=$1; shift; if "$@"; then pass "$name"; else fail "$name"; fi; }

# start_app_as TERM LOCALE ARGS...: a fresh 80×24 session running weft with that TERM and
# locale (LANG and LC_ALL), then a shell; `app_env="NAME=value …" start_app …` sets more
# variables for weft. TERM is set inside the pane: tmux gives a new pane its own
# default-terminal whatever `-e TERM=` says. The wrapper shell catches SIGINT (`trap :`) so
# Ctrl-C reaches only weft; weft itself gets the default.
start_app_as() {
    local term=$1 locale=$2
    shift 2
    tm kill-session -t e2e >/dev/null 2>&1
    local args="" arg
    for arg in "$@"; do args+=" '$arg'"; done
    tm new-session -d -s e2e -x 80 -y 24 \
        -e LANG="$locale" -e LC_ALL="$locale" -e XDG_DATA_HOME="$work/data" \
        -e XDG_CONFIG_HOME="$work/config" \
        "sh -c 'trap : INT; TERM=$term ${app_env:-} \"$bin\"$args; echo EXIT=\$?; exec sh'"
}

# start_app ARGS...: weft in a UTF-8 tmux terminal.
start_app() { start_app_as tmux-256color C.UTF-8 "$@"; }

# only_ascii TEXT: no character outside ASCII, except line drawing (tmux shows the
# terminal's ACS line drawing as Unicode box characters).
only_ascii() { ! LC_ALL=C.UTF-8 grep -qP '[^\x{0}-\x{7F}\x{2500}-\x{257F}]' <<<"$1"; }

app_pid() { pgrep -P "$(tm display-message -p -t e2e '#{pane_pid}')" -x weft | head -n 1; }

# A session that lives as long as the server: killing the last session stops the server,
# and a new session started meanwhile would race its shutdown.
tm new-session -d -s keep -x 20 -y 5 cat

