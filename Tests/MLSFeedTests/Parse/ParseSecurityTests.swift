import Foundation
import Testing
import MLSFeed

/// Entity attacks through every reader: refused at the declaration, fast, and nothing of the referenced file leaks.
@Suite struct ParseSecurityTests {
    static let secret = "SECRET-\(UInt64.random(in: 1...UInt64.max))-PASSWORD"

    static func attacks(_ secretPath: String) -> [(document: String, message: String)] {
        [
            ("""
             <?xml version="1.0"?>
             <!DOCTYPE dump [<!ENTITY xxe SYSTEM "file://\(secretPath)">]>
             <dump><keys>mls_number|public_remarks</keys><listing><values>1|&xxe;</values></listing></dump>
             """, "feed.xml:2:17: error: entity declarations are not allowed (entity \"xxe\")"),
            ("""
             <?xml version="1.0"?>
             <!DOCTYPE dump [
               <!ENTITY % remote SYSTEM "file://\(secretPath)">
               %remote;
             ]>
             <dump/>
             """, "feed.xml:3:3: error: entity declarations are not allowed (entity \"%remote\")"),
            ("""
             <!DOCTYPE RETS [<!ENTITY a "\(String(repeating: "x", count: 50_000))">]>
             <RETS ReplyCode="0"><COLUMNS>\tA\t</COLUMNS>
             <DATA>\t\(String(repeating: "&a;", count: 50_000))\t</DATA></RETS>
             """, "feed.xml:1:17: error: entity declarations are not allowed (entity \"a\")"),
        ]
    }

    @Test(arguments: [ParseSettings(format: .triples(TriplesSettings())),
                      ParseSettings(format: .retsCompact(RETSSettings())),
                      ParseSettings(format: .xml(PlainXMLSettings()))])
    func attacksFailFastWithoutLeaking(settings: ParseSettings) throws {
        let secretURL = FileManager.default.temporaryDirectory
            .appendingPathComponent("mlsfeed-parse-secret-\(UUID().uuidString).txt")
        try Data(Self.secret.utf8).write(to: secretURL)
        defer { try? FileManager.default.removeItem(at: secretURL) }
        for attack in Self.attacks(secretURL.path) {
            let clock = ContinuousClock()
            let started = clock.now
            var records: [RawRecord] = []
            var message: String?
            let reader = makeRecordReader(settings: settings, source: "feed.xml")
            do {
                try reader.feed(Array(attack.document.utf8)[...])
                records += reader.takeRecords()
                try reader.finish()
                records += reader.takeRecords()
            } catch let error as InputError {
                message = error.description
            }
            #expect(clock.now - started < .seconds(2))
            #expect(message == attack.message)
            #expect(!"\(records)".contains(Self.secret))
            #expect(!(message ?? "").contains(Self.secret))
            #expect(!"\(reader.report)".contains(Self.secret))
        }
    }
}
