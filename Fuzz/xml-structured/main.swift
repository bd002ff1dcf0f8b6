// Fuzz target: the structured XML reader as the shipped XML pipelines use it (RETS Syndication's nested record
// path `Listings/Listing`, its `commons:` namespace and two `embedded_agents` entries with `each:` and `where:`;
// CREA DDF; RETS STANDARD-XML), end to end through the normalizer and validator (ReaderHarness describes the
// input). The variant byte picks the pipeline (in file name order) in its low bits; bit 4 puts a `*` step in
// front of the record path, bit 5 sets a 512-byte record limit, bit 6 a depth limit of 8.
import FuzzSupport
import MLSFeed

let pipelines = ShippedPipelines.load { format in
    if case .xml = format { return true }
    return false
}

LibFuzzer.run { bytes in
    ReaderHarness.run(bytes) { variant in
        let pipeline = pipelines[Int(variant & 15) % pipelines.count]
        guard case .xml(var xml) = pipeline.parse.format else { fatalError("not an XML pipeline") }
        if variant & 16 != 0 { xml.recordElement = "*/" + xml.recordElement }
        return ReaderHarness.Setup(format: .xml(xml), mapping: pipeline.mapping, zone: pipeline.timeZone,
                                   maxRecordBytes: variant & 32 != 0 ? 512 : ParseSettings.defaultMaxRecordBytes,
                                   maxDepth: variant & 64 != 0 ? 8 : ParseSettings.defaultMaxDepth)
    }
}
