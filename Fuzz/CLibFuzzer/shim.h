#ifndef MLSFEED_CLIBFUZZER_SHIM_H
#define MLSFEED_CLIBFUZZER_SHIM_H
// libFuzzer's driver, from the toolchain's libclang_rt.fuzzer_no_main (scripts/fuzz links it): the fuzz targets
// keep their own `main` (SwiftPM renames it per executable), so they start the driver themselves.
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif
