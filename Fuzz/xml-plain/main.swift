// Fuzz target: the XML record reader without a mapping, so every record goes whole to `extra` (ReaderHarness
// describes the input). The variant byte's bit 0 picks the record element: `listing` or `feed` (the usual root,
// so records then nest other records' elements); bit 1 a 256-byte record limit; bit 2 a depth limit of 8.
import FuzzSupport
import MLSFeed

LibFuzzer.run { bytes in
    ReaderHarness.run(bytes) { variant in
        var plain = PlainXMLSettings()
        if variant & 1 != 0 { plain.recordElement = "feed" }
        return ReaderHarness.Setup(format: .xml(plain),
                                   maxRecordBytes: variant & 2 != 0 ? 256 : ParseSettings.defaultMaxRecordBytes,
                                   maxDepth: variant & 4 != 0 ? 8 : ParseSettings.defaultMaxDepth)
    }
}
