import Foundation
import Testing
@testable import MLSFeed

/// A reader's parts go away with the last reference to the reader, whether its document read whole, failed or was
/// left unfinished. A parser owns its delegate, so a delegate holding its parser strongly leaked both: found by
/// LeakSanitizer in the `xml-plain` and `xml-structured` fuzz targets (every `format: xml` reader kept its handler,
/// libxml2 parser context and record trees) and in `reso-json` (every JSON reader).
@Suite struct ParseReaderLifetimeTests {
    static let documents: [(String, Bool)] = [
        ("<feed><listing><id>1</id></listing></feed>", true),  // read whole
        ("", true),                                             // fails at finish: empty
        ("<feed><listing>", true),                              // fails at finish: truncated
        ("<feed><listing>", false),                             // dropped unfinished (a stopped run)
    ]

    @Test(arguments: documents)
    func structuredXMLHandlerIsFreed(document: String, finished: Bool) {
        weak var freed: StructuredXMLHandler?
        do {
            let handler = StructuredXMLHandler(settings: PlainXMLSettings(),
                                               mapping: Mapping(entity: .listing, fields: []), source: "feed.xml")
            freed = handler
            let reader = XMLRecordReader(handler: handler, settings: ParseFixture.xml, source: "feed.xml")
            try? reader.feed(Array(document.utf8)[...])
            if finished { try? reader.finish() }
            _ = reader.takeRecords()
        }
        #expect(freed == nil)
    }

    @Test(arguments: [
        (#"{"value": [{"ListingKey": "A"}]}"#, true),  // read whole
        ("", true),                                    // fails at finish: empty
        (#"{"value": [{"Listing"#, true),              // fails at finish: truncated
        (#"{"value": [{"Listing"#, false),             // dropped unfinished (a stopped run)
    ])
    func resoJSONReaderIsFreed(document: String, finished: Bool) {
        weak var freed: ResoJSONReader?
        do {
            let reader = ResoJSONReader(settings: ResoJSONSettings(), mapping: Mapping(entity: .listing, fields: []),
                                        source: "page.json")
            freed = reader
            try? reader.feed(Array(document.utf8)[...])
            if finished { try? reader.finish() }
            _ = reader.takeRecords()
        }
        #expect(freed == nil)
    }
}
