"""scripts/doc-examples, first half: every Swift block of the README and the library articles
against its twin (see the script's header for the rules), and what each twin must print.

    python3 scripts/lib/doc_examples_check.py EXPECTATIONS_JSON   # run from the repository root
"""
import json, pathlib, re, sys, textwrap

expectations_file = sys.argv[1]
docs = [pathlib.Path("README.md")] + sorted(
    p for lib in ("Weft", "WeftInitializer", "WeftServiceLifecycle", "WeftStartup", "WeftTesting") for p in pathlib.Path("Sources", lib).rglob("*.md"))
marker = re.compile(r"^\s*<!--\s*(\S+)\s*-->\s*$")
region = re.compile(r"^([ \t]*)// doc begins\n(.*?)^[ \t]*// doc ends$", re.S | re.M)
printed = re.compile(r"^\s*print\(.*\)\s*//\s*(?:prints:\s*)?(.+?)\s*$")
said = re.compile(r"^.*\S.*//\s*prints:\s*(.+?)\s*$")

errors, blocks, fragments, matched, used = [], 0, 0, 0, set()
shown_by_doc = {}  # doc -> [(block's line, block, twin, region's line or None)]
expected = {}  # target -> [(doc:line, text)]
regions_by_file = {}

def regions(path):
    if path not in regions_by_file:
        text = path.read_text()
        regions_by_file[path] = [(textwrap.dedent(m.group(2)), text[: m.start()].count("\n") + 1)
                                 for m in region.finditer(text)]
    return regions_by_file[path]

for doc in docs:
    lines = doc.read_text().split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].strip().startswith("```swift"):
            i += 1
            continue
        start = i + 1
        j = start
        while j < len(lines) and not lines[j].strip().startswith("```"):
            j += 1
        # A block inside a list item is indented: compared dedented, as the twin's region is.
        block = textwrap.dedent("\n".join(lines[start:j]) + "\n")
        where = f"{doc}:{i + 1}"
        blocks += 1
        k = i - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        m = marker.match(lines[k]) if k >= 0 else None
        i = j + 1
        if not m:
            errors.append(f"{where}: a Swift block without a twin: put `<!-- Tests/…/File.swift -->` (a compiled file "
                          "holding its text) or `<!-- fragment -->` on the line before it")
            continue
        target = m.group(1)
        if target == "fragment":
            fragments += 1
            continue
        path = pathlib.Path(target)
        if not target.startswith("Tests/") or not path.is_file():
            errors.append(f"{where}: the twin {target} is not a file under Tests/")
            continue
        whole = path.read_text()
        found = None
        if whole == block:
            found = ("whole", 0)
        else:
            for text, line in regions(path):
                if text == block:
                    found = (str(path), line)
                    break
        if not found:
            errors.append(f"{where}: the block differs from its twin {target} (the whole file, or one region "
                          "between `// doc begins` and `// doc ends`); copy one into the other")
            continue
        used.add(found if found[0] != "whole" else (target, 0))
        shown_by_doc.setdefault(doc, []).append((start, block, path, found[1] or None))
        matched += 1
        parts = path.parts
        if len(parts) > 4 and parts[:3] == ("Tests", "DocExamples", "Sources"):
            for n, line in enumerate(block.split("\n")):
                p = printed.match(line) or said.match(line)
                if p and not p.group(1).startswith("e.g."):
                    expected.setdefault(parts[3], []).append((f"{doc}:{start + n + 1}", p.group(1)))

for path in sorted(pathlib.Path("Tests/DocExamples/Sources").rglob("*.swift")):
    for _, line in regions(path):
        if (str(path), line) not in used:
            errors.append(f"{path}:{line}: a `// doc begins` region that no block of the docs shows "
                          "(its block changed, or it went): mend one or the other")

# ---- Stand-alone: a block needs only what its article has shown before it. ----
KEYWORDS = set("""associatedtype class deinit enum extension fileprivate func import init inout internal let open
operator private precedencegroup protocol public rethrows static struct subscript typealias var break case catch
continue default defer do else fallthrough for guard if in repeat return throw switch where while Any as await
false is nil self Self super throws true try async actor some any final nonisolated mutating lazy weak unowned
override required convenience get set willSet didSet consume borrowing consuming sending package""".split())
ident = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

def code_only(text):
    """`text` without comments and string literals (an interpolation's code kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif text[i] == '"':
            quote = '"""' if text.startswith('"""', i) else '"'
            i += len(quote)
            while i < n and not text.startswith(quote, i):
                if text.startswith("\\(", i):  # an interpolation: its code counts
                    depth, i = 1, i + 2
                    start = i
                    while i < n and depth:
                        depth += {"(": 1, ")": -1}.get(text[i], 0)
                        i += 1
                    out.append(" " + text[start:i - 1] + " ")
                    continue
                if text[i] == "\\":
                    i += 1
                elif text[i] == "\n":
                    out.append("\n")
                i += 1
            i += len(quote)
            out.append('""')
        else:
            out.append(text[i])
            i += 1
    return "".join(out)

decl_name = re.compile(r"\b(?:let|var|func|class|struct|enum|protocol|actor|typealias)\s+`?([A-Za-z_]\w*)")
type_decl = re.compile(r"\b(?:class|struct|enum|protocol|actor|typealias)\s+([A-Za-z_]\w*)")
func_params = re.compile(r"\bfunc\s+\w+\s*(?:<[^>]*>)?\s*\(([^)]*)\)")
closure_params = re.compile(r"\{\s*(?:\[[^\]\n]*\]\s*)?\(?\s*(\w+(?:\s*,\s*\w+)*)\s*\)?\s+in\b")

def declared(code):
    """The names `code` (comments and strings gone) declares, at any depth: let, var, func, types, a
    function's parameters, a closure's parameters, `if let`/`guard let` and `for` bindings."""
    names = set(decl_name.findall(code))
    for params in func_params.findall(code):
        for p in params.split(","):
            words = p.split(":")[0].split()
            if words:
                names.add(words[-1])
    for params in closure_params.findall(code):
        for p in params.split(","):
            words = p.split(":")[0].split()
            if words:
                names.add(words[-1])
    names.update(re.findall(r"\bfor\s+(?:case\s+let\s+)?\(?\s*(\w+)", code))
    names.update(re.findall(r"\bcatch\s+let\s+(\w+)", code))
    names.update(re.findall(r"\blet\s*\(\s*(\w+)\s*,\s*(\w+)", code) and
                 [n for pair in re.findall(r"\blet\s*\(\s*(\w+)\s*,\s*(\w+)", code) for n in pair] or [])
    return names - KEYWORDS - {"_"}

def uses(code):
    """The bare names `code` uses: identifiers not after `.` (a member) nor before `:` (a label)."""
    names = set()
    for m in ident.finditer(code):
        before = code[: m.start()].rstrip()
        if before.endswith(".") and not before.endswith(".."):
            continue
        if code[m.end(): m.end() + 1] == ":" and code[m.end(): m.end() + 2] != "::":
            continue
        if m.start() and code[m.start() - 1] in "$#@`":
            continue
        names.add(m.group())
    return names - KEYWORDS

def top_level_declared(code):
    """The names `code` declares outside any braces: what other files of the target can use."""
    names, depth = set(), 0
    for line in code.split("\n"):
        if depth == 0:
            names |= set(decl_name.findall(line))
        depth += line.count("{") - line.count("}")
    return names

# A hidden line may be: blank or a comment; an import; scaffolding (below); a line of a block its
# article showed earlier; a check.
scaffold = [
    re.compile(r"^[\]\)}]+[,;]?$"),                                      # closes a scope
    re.compile(r"^#(?:if|elseif|else|endif)\b.*$"),                      # a compile-time condition
    re.compile(r"^(?:@\w+(?:\([^)]*\))?\s*)+$"),                         # an attribute alone: @MainActor
    re.compile(r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:private|fileprivate|internal|static|nonisolated)\s+)*"
               r"func\s+\w+\(\)\s*(?:async\s*)?(?:throws\s*)?\{$"),      # func name() async throws {
    re.compile(r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:private|fileprivate|internal|final)\s+)*"
               r"(?:struct|class|enum)\s+\w+\s*\{$"),                    # struct Name {
    re.compile(r"^do\s*\{$"),                                            # do {
    re.compile(r"^\}\s*catch\b[^{]*\{$"),                                # } catch … {
]
check = re.compile(r"^(?:try\s+|await\s+)*(?:precondition|preconditionFailure|assert|assertionFailure|#expect|#require|"
                   r"Issue\.record)\s*\(")
binding = re.compile(r"^(?:let\s+(\w+)|_)\s*(?::[^=]+)?=\s*(?:try\??\s+|await\s+)*(?!.*\bregister\b)")

def hidden_kind(stripped):
    if not stripped or stripped.startswith("//") or stripped.startswith("///"):
        return "blank"
    if re.match(r"^(?:@testable\s+)?import\s+\w+", stripped):
        return "import"
    if any(p.match(stripped) for p in scaffold):
        return "scaffold"
    if check.match(stripped):
        return "check"
    return None

type_opener = re.compile(r"\b(?:struct|class|enum|actor|extension|protocol)\b[^{]*$")
decl_opener = re.compile(r"(?:\b(?:func|init|deinit|subscript)\b[^{]*|\bvar\s+\w+\s*:[^={]*|^\s*(?:get|set|willSet|didSet))$")

def stacks(code_lines):
    """Each line's enclosing blocks at its start: a list of (id, kind), kind `type` (a type's or
    extension's body: declarations), `decl` (a function's or accessor's body: runs when called) or
    `run` (a statement's block or closure: runs with it)."""
    out, stack, next_id = [], [], 0
    for line in code_lines:
        out.append(list(stack))
        for i, ch in enumerate(line):
            if ch == "{":
                before = line[:i]
                kind = "type" if type_opener.search(before) else "decl" if decl_opener.search(before) else "run"
                stack.append((next_id, kind))
                next_id += 1
            elif ch == "}" and stack:
                stack.pop()
    return out

def lead_in(path, code_lines, span_lines, start):
    """The hidden lines of a twin that run, or open a scope, before its region at line `start`
    (1-based, its `// doc begins`): the openers of the scopes around the region, and every
    earlier line of those scopes that runs (with what it nests, except declaration bodies), where
    a scope runs its lines in order: a function's or closure's body, or main.swift's top level."""
    shown = set()
    for a, b in span_lines:
        shown.update(range(a, b + 1))
    st = stacks(code_lines)
    region = st[start - 1]
    ids = [i for i, _ in region]
    found = {}
    for k in range(1, start):
        if k in shown:
            continue
        here = st[k - 1]
        line = code_lines[k - 1]
        opens = line.count("{") > line.count("}")
        after = st[k] if k < len(st) else []
        if opens and len(after) > len(here) and after[-1][0] in ids:
            found[k] = "opener"
            continue
        common = 0
        while common < min(len(here), len(ids)) and here[common][0] == ids[common]:
            common += 1
        if common < len(here) and len(here) > common and any(kind != "run" for _, kind in here[common:]):
            continue  # inside a declaration's body: not run before the region
        runs = (path.name == "main.swift") if common == 0 else region[common - 1][1] != "type"
        if not runs:
            continue  # a declaration (the name check sees whether the region uses it)
        found[k] = "runs"
    return found

def decl_kind(name, code):
    """`type`, `func` or `value` (let, var, a parameter): how `code` declares `name`."""
    m = re.search(r"\b(let|var|func|class|struct|enum|protocol|actor|typealias)\s+`?" + re.escape(name) + r"\b", code)
    return "value" if not m or m.group(1) in ("let", "var") else "func" if m.group(1) == "func" else "type"

def region_functions(directory):
    """The functions of a DocExamples target whose bodies hold a region the docs show."""
    names = set()
    for f in directory.glob("*.swift"):
        code = code_only(f.read_text()).split("\n")
        st = stacks(code)
        openers = {}
        for k, line in enumerate(code, 1):
            m = re.search(r"\bfunc\s+(\w+)", line)
            if m and k < len(st) and len(st[k]) > len(st[k - 1]):
                openers[st[k][-1][0]] = m.group(1)
        for a, _ in spans(f):
            if (str(f), a) in used_regions:
                names.update(openers[i] for i, _ in st[a - 1] if i in openers)
    return names

# Stand-alone exceptions, each with its reason, printed as a note on every run: (doc, name the
# block uses) or (doc, hidden line) -> why it is left for now. Mend one, then delete its line.
NOT_YET = "found when the rule came in (issue 57), not mended yet"
PENDING = {
}
notes = []

def paren_balance(s):
    return s.count("(") - s.count(")") + s.count("[") - s.count("]")

def spans(path):
    text = path.read_text()
    return [(text[: m.start()].count("\n") + 1, text[: m.end()].count("\n") + 1) for m in region.finditer(text)]

def classify(path, shown_spans):
    """Each hidden line's number (1-based) -> (kind, stripped code, original line), comments and
    strings gone; a check's or a binding's continuation lines take its kind."""
    original = path.read_text().split("\n")
    code = code_only(path.read_text()).split("\n")
    inside = set()
    for a, b in shown_spans:
        inside.update(range(a, b + 1))
    kinds, open_kind, balance = {}, None, 0
    for n, (line, orig) in enumerate(zip(code, original), 1):
        s = line.strip()
        if open_kind and balance > 0:
            kinds[n] = (open_kind, s, orig)
            balance += paren_balance(s)
            continue
        open_kind = None
        kind = hidden_kind(s)
        if kind is None:
            b = binding.match(s)
            if b:
                kind = ("binding", b.group(1))
        if kind in ("check",) or (isinstance(kind, tuple)):
            balance = paren_balance(s)
            open_kind = kind if balance > 0 else None
        if n not in inside:
            kinds[n] = (kind, s, orig)
    return kinds

def prose_names(lines, upto):
    """The names the article's prose, before line `upto` (0-based), puts in a code span: first identifier."""
    names, fenced = set(), False
    for line in lines[:upto]:
        if line.strip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            for span in re.findall(r"`+([^`]+)`+", line):
                m = ident.search(span)
                if m and span.strip().startswith(m.group()):
                    names.add(m.group())
    return names

def stand_alone(doc, lines, shown):
    """`shown`: the doc's blocks in order: (line, block, path, region line or None)."""
    problems = []
    earlier_lines, shown_names, reported = set(), set(), set()
    later_names = {}
    for n, (_, block, _, _) in enumerate(shown):
        for name in top_level_declared(code_only(block)):
            later_names.setdefault(name, n)
    declared_at = {}  # a name a region block declares at its top level -> that block's line
    for n, (line, block, path, start) in enumerate(shown):
        where = f"{doc}:{line}"
        block_code = code_only(block)
        carried = set(shown_names)  # what the blocks before this one declare at their top level
        shown_names |= top_level_declared(block_code)
        # Pasted in order, an article's blocks compile as one file: a block that is a region of
        # a twin (a whole-file one is a program of its own) declares no name an earlier one did.
        if start:
            for name in sorted(top_level_declared(block_code)):
                if name in declared_at:
                    problems.append(
                        f"{where}: the block declares `{name}`, which the block at line {declared_at[name]} of "
                        "the article declared: pasted in order, the article's blocks would not compile. Give "
                        "it a name of its own, or use the earlier one.")
                else:
                    declared_at[name] = line
        mine = declared(block_code)  # this block's own names, at any depth
        needs = uses(block_code)
        hidden = {}  # name -> (file:line, text, is a type)
        twin_spans = [s for s in spans(path) if (str(path), s[0]) in used_regions] if start else []
        if start:
            drivers = region_functions(path.parent) if path.parts[:3] == ("Tests", "DocExamples", "Sources") else set()
            kinds = classify(path, twin_spans)
            lead = lead_in(path, code_only(path.read_text()).split("\n"), twin_spans, start)
            plain = path.read_text().split("\n")
            all_shown_later = {b2 for _, b2, _, _ in shown}
            for k in sorted(lead):
                kind, code, orig = kinds.get(k, (None, "", plain[k - 1]))
                if (path, k) in reported:
                    continue
                if orig.strip() in earlier_lines and orig.strip():
                    continue  # a line of a block the article showed earlier
                if kind in ("blank", "import", "scaffold", "check"):
                    continue
                driver = re.match(r"^(?:try\s+|await\s+)*(\w+)\(.*\)$", code)
                if driver and driver.group(1) in drivers:
                    continue  # runs a function that holds a region the article showed
                if isinstance(kind, tuple) and (kind[1] is None or kind[1] not in needs):
                    continue  # a value only checks read
                opener = re.match(r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:private|fileprivate|static|nonisolated)\s+)*"
                                  r"func\s+\w+\s*\(([^)]*)\)\s*(?:async\s*)?(?:throws\s*)?\{$", code)
                if opener:
                    params = {p.split(":")[0].split()[-1] for p in opener.group(1).split(",") if p.strip()}
                    if params <= carried:
                        continue  # a function whose parameters stand for values the article showed
                reported.add((path, k))
                if (str(doc), orig.strip()) in PENDING:
                    notes.append(f"{where}: {path}:{k} hides `{orig.strip()}`; left so: {PENDING[(str(doc), orig.strip())]}")
                    continue
                problems.append(
                    f"{where}: the block's twin {path} runs or declares, before its region, a line the article "
                    f"does not show:\n    {path}:{k}: {orig.strip()}\n  a reader of the article alone could not "
                    "write it: show it in the article (in this block or one before it), or move it into the "
                    "region; hidden lines may only be imports, comments, scaffolding (`func name() async "
                    "throws {`, `struct Name {`, `}`, `#if`), checks (`precondition`, `#expect`) or lines of a "
                    "block the article shows earlier")
            hidden_code = "\n".join(kinds[k][1] for k in sorted(kinds))
            for name in declared(hidden_code):
                k = next((k for k in sorted(kinds) if name in declared(kinds[k][1])), 0)
                hidden.setdefault(name, (f"{path}:{k}", kinds.get(k, ("", "", ""))[2].strip(),
                                         decl_kind(name, hidden_code)))
        parts = path.parts
        if len(parts) > 4 and parts[:3] == ("Tests", "DocExamples", "Sources"):
            for other in sorted(pathlib.Path(*parts[:4]).glob("*.swift")):
                if other == path and start:
                    continue
                other_spans = [s for s in spans(other) if (str(other), s[0]) in used_regions]
                if other == path:
                    continue  # shown whole
                kinds = classify(other, other_spans)
                text = "\n".join(kinds[k][1] if k in kinds else "" for k in range(1, len(other.read_text().split("\n")) + 1))
                for name in top_level_declared(text):
                    k = next((k for k in sorted(kinds) if name in decl_name.findall(kinds[k][1])), 0)
                    hidden.setdefault(name, (f"{other}:{k}", kinds.get(k, ("", "", ""))[2].strip(),
                                             decl_kind(name, text)))
        assumed = prose_names(lines, line - 1)
        for name in sorted(needs & set(hidden)):
            if name in carried or name in mine:
                continue
            at, text, is_type = hidden[name]
            if is_type != "value" and name in assumed:
                continue  # a type or function of the app's own, which the prose names
            if (str(doc), name) in PENDING:
                notes.append(f"{where}: `{name}` is declared out of the reader's sight ({at}); left so: "
                             f"{PENDING[(str(doc), name)]}")
                continue
            later = later_names.get(name)
            shown_later = f" (a later block shows it: move that one before this)" if later and later > n else ""
            kind = (f"a {is_type} the article's prose does not name before the block: name it (\"`{name}` is the "
                    "app's own\") if it stands for the reader's own code, or show it") if is_type != "value" else \
                   "a value: what it holds is part of the example, so show it"
            problems.append(f"{where}: the block uses `{name}`, which no block before it shows{shown_later}: "
                            f"it is declared out of the reader's sight at\n    {at}: {text}\n  {kind} "
                            "(in this block or one before it, or inside the twin's region)")
        earlier_lines |= {l.strip() for l in block.split("\n") if l.strip()}
    return problems

used_regions = used
for doc, shown in shown_by_doc.items():
    errors.extend(stand_alone(doc, doc.read_text().split("\n"), shown))

if fragments * 5 > blocks:
    errors.append(f"{fragments} of {blocks} blocks are fragments: at most a fifth may be; give the rest a twin")
for note in notes:
    print("note:", note, file=sys.stderr)
for e in errors:
    print("error:", e, file=sys.stderr)
json.dump(expected, open(expectations_file, "w"))
print(f"doc examples: {blocks} Swift blocks: {matched} match their twin, {fragments} fragments, {len(errors)} problems")
sys.exit(1 if errors else 0)
