import Foundation
import Testing
import MLSFeed

/// The same document fed in 1-byte, 7-byte, 4 KiB and whole chunks gives identical records and reports.
@Suite struct ParseChunkBoundaryTests {
    static let featuresMultiValued = {
        var rets = RETSSettings()
        rets.multiValueColumns = ["FEATURES"]
        return rets
    }()

    static let cases: [(String, ParseSettings)] = [
        ("triples-per-record.xml", ParseFixture.triples),
        ("triples-header-once.xml", ParseFixture.triples),
        ("rets-compact.xml", ParseSettings(format: .retsCompact(featuresMultiValued))),
        ("rets-decoded-pipe.xml", ParseFixture.rets),
        ("rets-20208.xml", ParseFixture.rets),
        ("plain-listings.xml", ParseFixture.xml),
    ]

    @Test(arguments: cases)
    func chunkingDoesNotChangeRecords(file: String, settings: ParseSettings) throws {
        let whole = try ParseFixture.read(file, settings)
        #expect(!whole.records.isEmpty)
        for chunk in [1, 7, 4096] {
            let pieces = try ParseFixture.read(file, settings, chunk: chunk)
            #expect(pieces.records == whole.records, "chunk \(chunk)")
            #expect(pieces.report == whole.report, "chunk \(chunk)")
        }
    }
}
