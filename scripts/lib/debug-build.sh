# Sourced, not run: the app's debug build that the scripts share, as the array `weft_build`
# (flags for `swift build`, `swift test` and `swift package`).
#
#   WEFT_BUILD=plain      (the default) .build, as `swift build --traits App` makes it.
#   WEFT_BUILD=sanitized  (scripts/test) .build-fuzz: every module under AddressSanitizer with
#                         libFuzzer's coverage, and libFuzzer's runtime (its variant without a
#                         main) linked in. The fuzz targets, the unit tests, the binary that
#                         scripts/e2e drives and the install check all come from this one build,
#                         so a fresh clone compiles the app's stack once for all of them.
#
# -sanitize=fuzzer is not used: it links libFuzzer's main into every executable, the build's
# plugin tool among them (WeftFuzz has its own main, which picks the target; -DWEFT_LIBFUZZER
# tells CFuzzerDriver to call libFuzzer). A program run from the sanitized build needs
# ASAN_OPTIONS=detect_leaks=0 unless leaks are what it looks for: ncurses, the test runner and
# the Swift runtime's caches keep memory until exit on purpose.
weft_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
case "${WEFT_BUILD:-plain}" in
plain) weft_build=(--traits App) ;;
sanitized)
    weft_swiftc_dir=$(dirname "$(readlink -f "$(command -v swiftc)")")
    weft_libfuzzer=$(ls "$weft_swiftc_dir"/../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-"$(uname -m)".a 2>/dev/null | head -1)
    if [ -z "$weft_libfuzzer" ]; then
        echo "error: libFuzzer's runtime is not in this Swift toolchain ($weft_swiftc_dir/../lib/clang)" >&2
        exit 1
    fi
    weft_build=(--traits App --scratch-path "$weft_root/.build-fuzz"
        -Xswiftc -sanitize=address
        -Xswiftc -sanitize-coverage=edge,trace-cmp,indirect-calls,inline-8bit-counters,pc-table
        -Xcc -DWEFT_LIBFUZZER -Xlinker "$weft_libfuzzer" -Xlinker -lstdc++)
    ;;
*)
    echo "error: WEFT_BUILD is '$WEFT_BUILD'; use plain (the default) or sanitized" >&2
    exit 2
    ;;
esac
