import Foundation
import Testing
import MLSFeed

@Suite struct ParseOnlyTests {
    @Test func countsRecordsOfAFile() throws {
        let url = try #require(Bundle.module.url(forResource: "rets-compact", withExtension: "xml",
                                                 subdirectory: "Fixtures/parse"))
        let (records, report) = try parseOnly(path: url.path, settings: ParseFixture.rets)
        #expect(records == 4)
        #expect(report.declaredCount == 4)
    }

    @Test func missingFileIsAnInputError() throws {
        #expect(throws: InputError("cannot open for reading",
                                   at: SourcePosition(file: "/nonexistent/feed.xml", line: 1, column: 1))) {
            _ = try parseOnly(path: "/nonexistent/feed.xml", settings: ParseFixture.triples)
        }
    }
}
