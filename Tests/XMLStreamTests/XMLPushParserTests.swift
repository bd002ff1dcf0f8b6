import Foundation
import Testing
import XMLStream

/// Writes every event as a line: `start name a=v @line:col`, `text "..."` (non-blank runs), `end name`.
final class EventRecorder: XMLStreamDelegate {
    var events: [String] = []
    var failOn: String?

    func startElement(_ name: XMLName, parser: XMLPushParser) throws {
        flush(parser)
        if name.string == failOn { throw XMLStreamError("refused \(name)", line: 9, column: 9) }
        let attributes = parser.attributes().map { " \($0.name)=\($0.value)" }.joined()
        let (line, column) = parser.startTagPosition
        events.append("start \(name)\(attributes) @\(line):\(column)")
    }

    func endElement(_ name: XMLName, parser: XMLPushParser) throws {
        flush(parser)
        events.append("end \(name)")
    }

    private func flush(_ parser: XMLPushParser) {
        let text = String(decoding: parser.text, as: UTF8.self)
        if !text.allSatisfy(\.isWhitespace) { events.append("text \"\(text)\"") }
        parser.clearText()
    }
}

func fixture(_ name: String) throws -> [UInt8] {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
    return try Array(Data(contentsOf: url))
}

/// Parses `bytes` fed in chunks of `chunk` bytes (nil: whole), returning the events or the error text.
func parse(_ bytes: [UInt8], chunk: Int? = nil, encoding: String? = nil, sanitize: Bool = false,
           failOn: String? = nil, rewritesNonASCII: Bool = false)
    -> (events: [String], error: String?, parser: XMLPushParser?) {
    let recorder = EventRecorder()
    recorder.failOn = failOn
    do {
        let parser = try XMLPushParser(delegate: recorder, encoding: encoding, sanitize: sanitize,
                                       rewritesNonASCII: rewritesNonASCII)
        parser.capturesText = true
        do {
            let size = max(1, chunk ?? bytes.count)
            var offset = 0
            while offset < bytes.count {
                try parser.feed(bytes[offset..<min(bytes.count, offset + size)])
                offset += size
            }
            try parser.finish()
            return (recorder.events, nil, parser)
        } catch {
            return (recorder.events, "\(error)", parser)
        }
    } catch {
        return (recorder.events, "\(error)", nil)
    }
}

@Suite struct XMLPushParserTests {
    @Test func readsElementsAttributesTextAndPositions() throws {
        let result = parse(try fixture("listings.xml"))
        #expect(result.error == nil)
        #expect(result.events == [
            "start listings source=sdmls note=a & b @2:1",
            "start listing id=1 @3:3",
            "start city @3:19",
            "text \"San Diego\"",
            "end city",
            "start remarks @3:41",
            "text \"Ocean & bay <views> été <b>bold</b> & raw\"",
            "end remarks",
            "end listing",
            "start listing id=2 @4:3",
            "start city @5:14",
            "text \"Chula Vista — 東京\"",
            "end city",
            "end listing",
            "start empty @6:3",
            "end empty",
            "end listings",
        ])
    }

    @Test(arguments: [1, 2, 7, 64, nil] as [Int?])
    func chunkBoundariesDoNotChangeEvents(chunk: Int?) throws {
        let bytes = try fixture("listings.xml")
        let whole = parse(bytes)
        let pieces = parse(bytes, chunk: chunk)
        #expect(pieces.error == nil)
        #expect(pieces.events.filter { !$0.hasPrefix("start") } == whole.events.filter { !$0.hasPrefix("start") })
        #expect(pieces.events.count == whole.events.count)
    }

    @Test(arguments: [
        ("truncated.xml", "5:1: error: Premature end of data in tag city line 4"),
        ("mismatched.xml", "3:34: error: Opening and ending tag mismatch: city line 3 and town"),
        ("latin1-mislabeled.xml",
         "3:21: error: Input is not proper UTF-8, indicate encoding ! Bytes: 0xE9 0x20 0x4F 0x6C"),
        ("control-chars.xml", "3:24: error: PCDATA invalid Char value 11"),
        ("billion-laughs.xml", "3:3: error: entity declarations are not allowed (entity \"lol\")"),
    ])
    func badDocumentsFailWithLineAndColumn(file: String, message: String) throws {
        for chunk in [1, 7, nil] as [Int?] {
            let result = parse(try fixture(file), chunk: chunk)
            #expect(result.error == message, "chunk \(String(describing: chunk))")
        }
    }

    @Test func encodingOverrideReadsMislabeledLatin1() throws {
        let result = parse(try fixture("latin1-mislabeled.xml"), encoding: "ISO-8859-1")
        #expect(result.error == nil)
        #expect(result.events.contains("text \"Café Olé\""))
    }

    @Test func unknownEncodingIsRefused() throws {
        let result = parse(try fixture("listings.xml"), encoding: "EBCDIC-NOPE")
        #expect(result.error == "0:0: error: unsupported encoding \"EBCDIC-NOPE\"")
    }

    @Test func sanitizeRemovesForbiddenControlsAndCountsThem() throws {
        for chunk in [1, 7, nil] as [Int?] {
            let result = parse(try fixture("control-chars.xml"), chunk: chunk, sanitize: true)
            #expect(result.error == nil)
            #expect(result.events.contains("text \"badchar and  another\""))
            #expect(result.parser?.sanitizedCharacters == 2)
        }
    }

    @Test func doctypeWithoutEntitiesIsFine() throws {
        let result = parse(try fixture("doctype-no-entities.xml"))
        #expect(result.error == nil)
        #expect(result.events.contains("text \"ok & fine\""))
    }

    @Test func delegateErrorStopsTheParserAndIsRethrown() throws {
        let result = parse(try fixture("listings.xml"), failOn: "city")
        #expect(result.error == "9:9: error: refused city")
        #expect(result.events == ["start listings source=sdmls note=a & b @2:1", "start listing id=1 @3:3"])
    }

    @Test func namesAreInternedPerParser() throws {
        let parser = try XMLPushParser(delegate: EventRecorder())
        let listing = parser.name("listing")
        #expect(parser.name("listing") == listing)
        #expect(parser.name("keys") != listing)
        #expect(listing.string == "listing")
    }
}
