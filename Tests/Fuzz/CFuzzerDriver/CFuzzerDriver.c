#include "CFuzzerDriver.h"

#ifdef WEFT_LIBFUZZER
// libFuzzer's entry point for a program that has a main of its own (libclang_rt.fuzzer_no_main).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif

int weft_fuzzer_run(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size)) {
#ifdef WEFT_LIBFUZZER
    return LLVMFuzzerRunDriver(argc, argv, callback);
#else
    (void)argc;
    (void)argv;
    (void)callback;
    return -1;
#endif
}
