// Fuzz target: the RETS COMPACT record reader (ReaderHarness describes the input). The variant byte's bit 0
// makes the FEATURES column multi-valued, bit 1 sets a 256-byte record limit, bit 2 a depth limit of 8.
import FuzzSupport
import MLSFeed

LibFuzzer.run { bytes in
    ReaderHarness.run(bytes) { variant in
        var rets = RETSSettings()
        if variant & 1 != 0 { rets.multiValueColumns = ["FEATURES"] }
        return ReaderHarness.Setup(format: .retsCompact(rets),
                                   maxRecordBytes: variant & 2 != 0 ? 256 : ParseSettings.defaultMaxRecordBytes,
                                   maxDepth: variant & 4 != 0 ? 8 : ParseSettings.defaultMaxDepth)
    }
}
