# e2e: output into a closed pipe, weft serve (ports, SIGTERM, logs and spans, metrics, load), a 50 MB reply refused. Sourced by scripts/e2e, in order, with scripts/lib/e2e/helpers.sh.
# shellcheck shell=bash

# --- a closed pipe ends output quietly --------------------------------------------
for format in --plain --json; do
    err="$work/pipe$format.err"
    "${plain_env[@]}" timeout 60 "$bin" $format </dev/null 2>"$err" | head -1 >/dev/null
    status=${PIPESTATUS[0]}
    last="status $status; stderr: $(cat "$err")"
    check "weft $format | head -1 exits 0 without a word on stderr" bash -c '[ "$1" -eq 0 ] && [ ! -s "$2" ]' _ "$status" "$err"
done

# --- weft serve on a privileged port as an unprivileged user -----------------------
# nobody cannot enter a clone that lives under a private folder (a home directory, a
# `mktemp -d`): it runs a copy of the binary from a folder of its own that it may enter.
nobody_dir=$(mktemp -d)
chmod 755 "$nobody_dir"
install -m 0755 "$bin" "$nobody_dir/weft"
out=$(cd "$nobody_dir" && env HOME="$nobody_dir" XDG_CONFIG_HOME="$nobody_dir" XDG_DATA_HOME="$nobody_dir" \
    setpriv --reuid=65534 --regid=65534 --clear-groups timeout 30 ./weft serve --port 80 </dev/null 2>&1); status=$?
rm -rf "$nobody_dir"
last=$out
check "weft serve --port 80 as nobody exits 2 and says it needs privileges" \
    bash -c '[ "$1" -eq 2 ] && grep -q "ports below 1024 need privileges" <<<"$2" && grep -q -- "--port" <<<"$2"' _ "$status" "$out"

# --- weft serve on WeftServiceLifecycle: SIGTERM lets a request in flight finish --------
serve_port=$(( 20000 + RANDOM % 20000 ))
"$bin" serve --port "$serve_port" --fault slow >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
serve_up() { grep -q "cat facts on" "$work/serve.out"; }
for _ in $(seq 1 300); do serve_up && break; sleep 0.1; done
exec 3<>"/dev/tcp/127.0.0.1/$serve_port"
printf 'GET /fact HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3
sleep 0.5   # the request is in flight: the slow fault answers after 30 s
kill -TERM "$serve_pid"
answer=$(timeout 60 cat <&3); exec 3<&-
wait "$serve_pid"; serve_status=$?
last="$answer"
check "weft serve: SIGTERM during a slow request still answers it (200)" bash -c 'grep -q "^HTTP/1.1 200" <<<"$1" && grep -q "\"fact\"" <<<"$1"' _ "$answer"
last=$(cat "$work/serve.err")
check "weft serve: a graceful shutdown exits 0 and says it stopped" bash -c '[ "$1" -eq 0 ] && grep -q "weft serve: stopped" <<<"$2"' _ "$serve_status" "$last"

# --- weft serve --log-level debug: a log line and a span per request, spans for start-up --
serve_port=$(( 20000 + RANDOM % 20000 ))
"$bin" serve --port "$serve_port" --log-level debug >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
for _ in $(seq 1 300); do serve_up && break; sleep 0.1; done
exec 3<>"/dev/tcp/127.0.0.1/$serve_port"
printf 'GET /fact HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: e2e\r\nConnection: close\r\n\r\n' >&3
timeout 10 cat <&3 >/dev/null; exec 3<&-
kill -TERM "$serve_pid"; wait "$serve_pid"
last=$(cat "$work/serve.err")
check "weft serve --log-level debug: the request is logged, with its method and path" \
    bash -c 'grep "\[Hummingbird\] Request" <<<"$1" | grep -q "hb.request.path=/fact"' _ "$last"
check "weft serve --log-level debug: the request is a span named after its route, with its status" \
    bash -c 'grep "span /fact" <<<"$1" | grep -q "span.http.response.status_code=200"' _ "$last"
check "weft serve --log-level debug: the start-up is a span tree (a step span inside the run's trace)" \
    bash -c 'grep -q "span weft.initialize" <<<"$1" && grep "span Load the bundled facts" <<<"$1" | grep -q "parent="' _ "$last"
# --- weft serve: /metrics in the Prometheus text format, with the start-up's series ----------
serve_port=$(( 20000 + RANDOM % 20000 ))
"$bin" serve --port "$serve_port" >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
for _ in $(seq 1 300); do serve_up && break; sleep 0.1; done
exec 3<>"/dev/tcp/127.0.0.1/$serve_port"
printf 'GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3
last=$(timeout 10 cat <&3); exec 3<&-
metrics=$(curl -sS --max-time 10 "http://127.0.0.1:$serve_port/metrics" 2>&1)
kill -TERM "$serve_pid"; wait "$serve_pid"
check "weft serve: /metrics answers the start-up's series in the Prometheus text format" \
    bash -c 'grep -q "^Content-Type: text/plain; version=0.0.4" <<<"$1" && grep -q "^weft_startup_runs_total{outcome=\"succeeded\"} 1" <<<"$1" && grep -q "^weft_startup_step_duration_seconds_count{step=" <<<"$1"' _ "$last"
# Read back by the Prometheus project's own parser (prometheus_client, Debian's, so the system's
# Python rather than whichever python3 PATH finds first), fetched with curl.
last=$metrics
check "weft serve: Prometheus's text parser reads /metrics: the runs counter, the ready and step histograms whole, step=\"facts\"" \
    /usr/bin/python3 - "$metrics" <<'PY'
import sys
from prometheus_client.parser import text_string_to_metric_families
families = {family.name: family for family in text_string_to_metric_families(sys.argv[1])}
runs = families["weft_startup_runs"]
assert runs.type == "counter", runs.type
assert any(s.labels == {"outcome": "succeeded"} and s.value == 1 for s in runs.samples), runs.samples
steps = {s.labels["step"] for s in families["weft_startup_step_duration_seconds"].samples}
assert steps == {"facts"}, steps
for name in ("weft_startup_step_duration_seconds", "weft_startup_ready_seconds"):
    family = families[name]
    assert family.type == "histogram", (name, family.type)
    series = {}
    for sample in family.samples:
        labels = tuple(sorted((k, v) for k, v in sample.labels.items() if k != "le"))
        series.setdefault(labels, []).append(sample)
    assert series, name
    for labels, samples in series.items():
        buckets = [s for s in samples if s.name.endswith("_bucket")]
        counts = [s.value for s in buckets]
        assert counts == sorted(counts), (name, labels, counts)
        assert buckets[-1].labels["le"] == "+Inf", (name, labels)
        count = next(s.value for s in samples if s.name.endswith("_count"))
        assert buckets[-1].value == count >= 1, (name, labels, count)
PY

# --- weft serve under load from clients nobody here wrote (RFC 9112 §9.3 persistence) --------
# ab speaks HTTP/1.0 and waits for the close its version implies, or with -k for an answer that
# says keep-alive; h2load --h1 keeps HTTP/1.1 connections open. /health answers the same length
# each time (ab counts a length that changes as a failed request; /fact's facts differ).
serve_port=$(( 20000 + RANDOM % 20000 ))
"$bin" serve --port "$serve_port" --log-level error >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
for _ in $(seq 1 300); do serve_up && break; sleep 0.1; done
ab_ok() { # LOG REQUESTS [KEPT]: every request completed, none failed or non-2xx, KEPT on kept connections
    grep -q "^Complete requests: *$2$" "$1" && grep -q "^Failed requests: *0$" "$1" && ! grep -q "^Non-2xx" "$1" &&
        { [ -z "${3:-}" ] || grep -q "^Keep-Alive requests: *$3$" "$1"; }
}
timeout 120 ab -n 2000 -c 10 "http://127.0.0.1:$serve_port/health" >"$work/ab.txt" 2>&1
last=$(cat "$work/ab.txt")
check "weft serve: ab (HTTP/1.0, a connection per request) completes 2,000 requests at concurrency 10, 0 failed" \
    ab_ok "$work/ab.txt" 2000
timeout 120 ab -k -n 2000 -c 10 "http://127.0.0.1:$serve_port/health" >"$work/ab.txt" 2>&1
last=$(cat "$work/ab.txt")
check "weft serve: ab -k (HTTP/1.0 keep-alive) completes 2,000 requests on kept connections, 0 failed" \
    ab_ok "$work/ab.txt" 2000 2000
timeout 120 h2load --h1 -n 20000 -c 100 "http://127.0.0.1:$serve_port/fact" >"$work/h2load.txt" 2>&1
last=$(cat "$work/h2load.txt")
check "weft serve: h2load --h1 answers 20,000 HTTP/1.1 requests on 100 connections, 0 failed" \
    grep -q "^requests: 20000 total, 20000 started, 20000 done, 20000 succeeded, 0 failed, 0 errored, 0 timeout" \
    "$work/h2load.txt"
# One request each way by hand. A connection the answer closes reads to its end; one it keeps
# answers the same request a second time (evidence, not a pause: 10 s bounds each read).
persistence=$(python3 - "$serve_port" <<'PY'
import socket, sys
requests = {
    "1.0": b"GET /health HTTP/1.0\r\n\r\n",
    "1.0-keep-alive": b"GET /health HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n",
    "1.1-close": b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: Close\r\n\r\n",
    "1.1": b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n",
}
def answer(s, buffered):
    """One answer (status line, connection field), and what was read past it; None at the close."""
    while b"\r\n\r\n" not in buffered:
        chunk = s.recv(4096)
        if not chunk:
            return None, buffered
        buffered += chunk
    head, rest = buffered.split(b"\r\n\r\n", 1)
    lines = head.decode().lower().split("\r\n")
    fields = dict(l.split(":", 1) for l in lines[1:])
    length = int(fields["content-length"])
    while len(rest) < length:
        chunk = s.recv(4096)
        if not chunk:
            return None, b""
        rest += chunk
    return (lines[0][:15], fields.get("connection", " -").strip()), rest[length:]
for name, request in requests.items():
    with socket.create_connection(("127.0.0.1", int(sys.argv[1]))) as s:
        s.settimeout(10)
        s.sendall(request)
        first, rest = answer(s, b"")
        if first[1] == "close":
            state = "closed" if s.recv(4096) == b"" and rest == b"" else "open"
        else:
            s.sendall(request)
            second, _ = answer(s, rest)
            state = "kept" if second else "closed"
    print(f"{name}: {first[0]} connection={first[1]} {state}")
PY
)
kill -TERM "$serve_pid"; wait "$serve_pid"
last=$persistence
check "weft serve: HTTP/1.0 is answered and closed; with keep-alive, kept and told so; HTTP/1.1 Connection: Close closes" \
    test "$persistence" = "$(printf '%s\n' '1.0: http/1.1 200 ok connection=close closed' \
        '1.0-keep-alive: http/1.1 200 ok connection=keep-alive kept' '1.1-close: http/1.1 200 ok connection=close closed' \
        '1.1: http/1.1 200 ok connection=- kept')"

out=$("$bin" serve --log-level loud 2>&1); status=$?
last=$out
check "weft serve --log-level loud exits 2 and lists the levels" \
    bash -c '[ "$1" -eq 2 ] && grep -q "trace, debug, info" <<<"$2"' _ "$status" "$out"

# --- a 50 MB reply is refused while streaming: memory stays what a one-fact reply takes ---
big_port=$(( 20000 + RANDOM % 20000 ))
python3 - "$big_port" <<'PY' &
import http.server, sys
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        small = self.path.startswith("/small/")
        body_size = 0 if small else 50 * 1024 * 1024
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if small:
            body = b'{"fact": "A small fact.", "length": 13}'
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.send_header("Content-Length", str(body_size))
        self.end_headers()
        chunk = b"x" * 65536
        try:
            for _ in range(body_size // len(chunk)): self.wfile.write(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
    def log_message(self, *args): pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
PY
big_pid=$!
cat >"$work/big-environments.json" <<JSON
{"environments": [
  {"name": "big", "description": "Answers 50 MB.", "source": "http://127.0.0.1:$big_port/big", "timeoutSeconds": 20},
  {"name": "small", "description": "Answers one fact.", "source": "http://127.0.0.1:$big_port/small", "timeoutSeconds": 20}
]}
JSON
for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$big_port") 2>/dev/null && break; sleep 0.1; done
# Peak RSS in KiB of one plain run, through Python's rusage of its child (no extra package).
peak_rss() {
    python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "${plain_env[@]}" "${rss_env[@]}" "$bin" --plain --environments "$work/big-environments.json" --env "$1"
}
# Under AddressSanitizer, freed memory waits in a quarantine (256 MB) before reuse: without
# one, the peaks compare as they do in a plain build.
rss_env=()
[ "${WEFT_BUILD:-plain}" = sanitized ] && rss_env=(env "ASAN_OPTIONS=$ASAN_OPTIONS:quarantine_size_mb=0")
small_rss=$(peak_rss small)
big_rss=$(peak_rss big)
out=$("${plain_env[@]}" timeout 60 "$bin" --plain --environments "$work/big-environments.json" --env big </dev/null 2>&1); status=$?
last="status $status; peak RSS: one fact ${small_rss} KiB, 50 MB reply ${big_rss} KiB; $out"
check "a 50 MB reply is refused (exit 1, the 64 KiB limit named) without buffering it: peak RSS within 8 MiB of a one-fact run" \
    bash -c '[ "$1" -eq 1 ] && grep -q "64 KiB" <<<"$2" && [ "$3" -gt 0 ] && [ "$4" -le $(( $3 + 8192 )) ]' _ "$status" "$out" "$small_rss" "$big_rss"
kill "$big_pid" 2>/dev/null; wait "$big_pid" 2>/dev/null

