import Foundation
import Testing
@testable import MLSFeed
@testable import MLSFeedFixtures

/// `bench-parse --input-format reso-json`: records are counted the same in a page, a bare array and JSON Lines.
@Suite struct JSONParseBenchTests {
    /// A fresh directory for one test.
    static func temporaryDirectory() throws -> String {
        let dir = NSTemporaryDirectory() + "mlsfeed-jsonbench-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func countsTheRecordsOfEveryLayout() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var options = FixtureOptions(listings: 400, output: dir + "/page.json", format: .resoJSON, seed: 9)
        let truth = try FixtureGenerator.generate(options)
        options.output = dir + "/lines.jsonl"
        options.jsonLines = true
        _ = try FixtureGenerator.generate(options)
        let page = try JSONParseBench.run(path: dir + "/page.json")
        let lines = try JSONParseBench.run(path: dir + "/lines.jsonl", makeStrings: true)
        #expect(page.records == truth.records && lines.records == truth.records)
        #expect(page.bytes == truth.bytes)
        #expect(page.events == lines.events + 9)  // the page's braces, brackets, 3 keys, context and count
        let array = dir + "/array.json"
        #expect(FileManager.default.createFile(atPath: array, contents: Data("[{\"a\":1},{\"b\":[{}]},{}]".utf8)))
        #expect(try JSONParseBench.run(path: array) == JSONParseBench.Counts(events: 15, records: 3, bytes: 23))
    }

    @Test func aBrokenFileFailsWithItsPosition() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/bad.json"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("{\"value\": [\n  {\"a\": tru}]}".utf8)))
        #expect(throws: InputError("lexical error: invalid string in json text",
                                   at: SourcePosition(file: path, line: 2, column: 12))) {
            _ = try JSONParseBench.run(path: path)
        }
    }
}
