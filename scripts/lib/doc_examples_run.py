"""scripts/doc-examples, second half: runs each built twin and checks what it prints against
the expectations the first half wrote.

    python3 scripts/lib/doc_examples_run.py EXPECTATIONS_JSON BIN_DIR SOURCES_DIR
"""
import json, pathlib, re, subprocess, sys
expected = json.load(open(sys.argv[1]))
bin_dir, sources = pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
failed, ran = 0, 0
for target in sorted(p.name for p in sources.iterdir() if p.is_dir()):
    if not (sources / target / "main.swift").exists():
        continue
    ran += 1
    # A twin that runs its article's Swift Testing tests is started as `swift test` starts a test
    # binary, so that it is a process running tests (Weft's `Container.Context.defaults`).
    runs_tests = "__swiftPMEntryPoint" in (sources / target / "main.swift").read_text()
    arguments = ["--testing-library", "swift-testing"] if runs_tests else []
    try:
        out = subprocess.run(
            [str(bin_dir / target), *arguments], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        print(f"error: the doc example {target} did not finish in 120 s", file=sys.stderr)
        failed += 1
        continue
    if out.returncode != 0:
        print(f"error: the doc example {target} exited with {out.returncode}:\n{out.stdout}{out.stderr}", file=sys.stderr)
        failed += 1
        continue
    lines = [l.rstrip() for l in out.stdout.split("\n")]
    # In the docs' order: each printed line is looked for after the one before it, so a wrong
    # `true` cannot pass on another example's `true`.
    at = 0
    for where, text in expected.get(target, []):
        pattern = "^" + ".*".join(re.escape(part) for part in text.split("…")) + "$"
        found = next((n for n in range(at, len(lines)) if re.match(pattern, lines[n])), None)
        if found is None:
            shown = "\n".join(lines[at:])
            print(f"error: {where} says it prints `{text}`, but after the lines before it {target} printed:\n"
                  f"{shown}", file=sys.stderr)
            failed += 1
        else:
            at = found + 1
checked = sum(len(v) for v in expected.values())
print(f"doc examples: {ran} examples ran; {checked} printed lines checked")
print(f"doc examples: {ran + checked - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
