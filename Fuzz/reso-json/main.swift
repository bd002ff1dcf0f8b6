// Fuzz target: the RESO JSON reader (OData pages, bare arrays, JSON Lines) as the shipped reso-json pipelines use
// it (Property with `multi_value` lists and the `MlgCanView` deletion field, Member), end to end through the
// normalizer and validator (ReaderHarness describes the input; the JSON reader ignores the encoding and sanitize
// bits). The variant byte picks the pipeline (in file name order) in its low bits; bit 4 sets a 512-byte record
// limit, bit 5 a depth limit of 8.
import FuzzSupport
import MLSFeed

let pipelines = ShippedPipelines.load { format in
    if case .resoJSON = format { return true }
    return false
}

LibFuzzer.run { bytes in
    ReaderHarness.run(bytes) { variant in
        let pipeline = pipelines[Int(variant & 15) % pipelines.count]
        guard case .resoJSON(var json) = pipeline.parse.format else { fatalError("not a reso-json pipeline") }
        return ReaderHarness.Setup(format: .resoJSON(json), mapping: pipeline.mapping, zone: pipeline.timeZone,
                                   deletion: pipeline.fetch.webAPI?.deletion,
                                   maxRecordBytes: variant & 16 != 0 ? 512 : ParseSettings.defaultMaxRecordBytes,
                                   maxDepth: variant & 32 != 0 ? 8 : ParseSettings.defaultMaxDepth)
    }
}
