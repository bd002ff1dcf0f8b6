// Fuzz target: the RETS COMPACT record reader (ReaderHarness describes the input). The variant byte's bit 0
// makes the FEATURES column multi-valued.
import FuzzSupport
import MLSFeed

LibFuzzer.run { bytes in
    ReaderHarness.run(bytes) { variant in
        var rets = RETSSettings()
        if variant & 1 != 0 { rets.multiValueColumns = ["FEATURES"] }
        return ReaderHarness.Setup(format: .retsCompact(rets))
    }
}
