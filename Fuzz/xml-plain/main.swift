// Fuzz target: the plain record XML reader (XMLHarness describes the input). The variant byte's bit 0 picks the
// record element: `listing` or `feed` (the usual root, so records then nest other records' elements).
import FuzzSupport
import MLSFeed

LibFuzzer.run { bytes in
    XMLHarness.run(bytes) { variant in
        var plain = PlainXMLSettings()
        if variant & 1 != 0 { plain.recordElement = "feed" }
        return .xml(plain)
    }
}
