import Foundation
import Testing
import MLSFeed

@Suite struct ParseEmptyInputTests {
    @Test(arguments: [ParseFixture.triples, ParseFixture.rets, ParseFixture.xml])
    func emptyInputIsAnError(settings: ParseSettings) throws {
        let reader = makeRecordReader(settings: settings, source: "empty.xml")
        let empty = InputError("the input is empty (0 bytes): not an XML document",
                               at: SourcePosition(file: "empty.xml", line: 1, column: 1))
        #expect(throws: empty) {
            try reader.finish()
        }
    }

    @Test func unknownEncodingIsAnError() throws {
        var settings = ParseFixture.triples
        settings.encoding = "NO-SUCH-ENCODING"
        let reader = makeRecordReader(settings: settings, source: "x.xml")
        #expect(throws: InputError("unsupported encoding \"NO-SUCH-ENCODING\"",
                                   at: SourcePosition(file: "x.xml", line: 1, column: 1))) {
            try reader.feed([60][...])
        }
    }
}
