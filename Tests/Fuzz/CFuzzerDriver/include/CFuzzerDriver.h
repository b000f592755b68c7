#ifndef WEFT_FUZZER_DRIVER_H
#define WEFT_FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer on `callback` with the command line `argc`/`argv`, and returns its exit
/// status; -1 when the binary was built without libFuzzer (scripts/fuzz builds it with
/// WEFT_LIBFUZZER defined and libFuzzer's runtime linked in).
int weft_fuzzer_run(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
