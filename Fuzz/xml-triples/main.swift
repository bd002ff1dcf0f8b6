// Fuzz target: the triples record reader (ReaderHarness describes the input). The variant byte picks the
// delimiter, whether the element names are the defaults or others (bit 3), a 256-byte record limit (bit 4) and
// a depth limit of 8 (bit 5).
import FuzzSupport
import MLSFeed

let delimiters = ["|", "\t", ",", "||", "::", "é"]

LibFuzzer.run { bytes in
    ReaderHarness.run(bytes) { variant in
        var triples = TriplesSettings()
        triples.delimiter = delimiters[Int(variant & 7) % delimiters.count]
        if variant & 8 != 0 {
            (triples.recordElement, triples.keysElement, triples.valuesElement) = ("r", "k", "v")
        }
        return ReaderHarness.Setup(format: .triples(triples),
                                   maxRecordBytes: variant & 16 != 0 ? 256 : ParseSettings.defaultMaxRecordBytes,
                                   maxDepth: variant & 32 != 0 ? 8 : ParseSettings.defaultMaxDepth)
    }
}
