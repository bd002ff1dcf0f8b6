// Fuzz target: the triples record reader (ReaderHarness describes the input). The variant byte picks the
// delimiter and whether the element names are the defaults or others.
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
        return ReaderHarness.Setup(format: .triples(triples))
    }
}
