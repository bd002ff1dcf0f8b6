import Foundation
import Testing
@testable import MLSFeed
@testable import MLSFeedFixtures

/// The committed sample feed `pipelines/data/sample.xml` is exactly what the generator writes for its options.
@Suite struct GenerateSampleTests {
    static let arguments = ["--format", "triples", "--shape", "header", "--listings", "300", "--seed", "2026"]

    @Test func committedSampleIsTheGeneratorsOutput() throws {
        let root = generateRepositoryRoot()
        let dir = try generateTemporaryDirectory()
        let options = try FixtureOptions(arguments: Self.arguments + ["--output", dir + "/sample.xml"])
        let truth = try FixtureGenerator.generate(options)
        let committed = try #require(FileManager.default.contents(atPath: root + "/pipelines/data/sample.xml"))
        #expect(FileManager.default.contents(atPath: dir + "/sample.xml") == committed)
        #expect(FileManager.default.contents(atPath: dir + "/sample.truth.json")
                == FileManager.default.contents(atPath: root + "/pipelines/data/sample.truth.json"))
        #expect(committed.count < 1_000_000)
        #expect(truth.source == "sdmls")
    }

    @Test func sampleCarriesTheRequiredDirt() throws {
        let truth = try FixtureGenerator.readTruth(generateRepositoryRoot() + "/pipelines/data/sample.xml")
        #expect(truth.listings == 300 && truth.seed == 2026 && truth.format == .triples && truth.shape == .header)
        #expect(!truth.duplicated.isEmpty)
        #expect(truth.rejected.contains { $0.reason == "bad_list_price" && $0.detail == "call agent" })
        #expect(truth.rejected.contains { $0.reason == "count_mismatch" })
        #expect(truth.rejected.contains { $0.reason == "empty_mls_number" && $0.mlsNumber == nil })
        #expect(truth.records == 303 && truth.uniqueValid == 296 && truth.rejects == 4 && truth.duplicates == 3)
    }

    /// `MLSFEED_WRITE_SAMPLE=1 swift test --filter GenerateSampleTests` rewrites the committed sample.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["MLSFEED_WRITE_SAMPLE"] == "1"))
    func writeSample() throws {
        let out = generateRepositoryRoot() + "/pipelines/data/sample.xml"
        _ = try FixtureGenerator.generate(FixtureOptions(arguments: Self.arguments + ["--output", out]))
    }
}
