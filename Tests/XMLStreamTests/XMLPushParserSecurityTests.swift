import Foundation
import Testing
import XMLStream

/// Entity attacks: each is refused at its first declaration, fast, and the referenced file is never read.
@Suite struct XMLPushParserSecurityTests {
    static let secret = "TOP-SECRET-\(UInt64.random(in: 1...UInt64.max))"

    /// A temporary file holding `secret`, which the attack documents reference.
    static func secretFile() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("xmlstream-secret-\(getpid()).txt")
        try Data(secret.utf8).write(to: url)
        return url
    }

    static func attacks(secretPath: String) -> [(name: String, document: String, message: String)] {
        let big = String(repeating: "a", count: 100_000)
        return [
            ("xxe", """
             <?xml version="1.0"?>
             <!DOCTYPE listings [
               <!ENTITY xxe SYSTEM "file://\(secretPath)">
             ]>
             <listings><listing><remarks>&xxe;</remarks></listing></listings>
             """, "3:3: error: entity declarations are not allowed (entity \"xxe\")"),
            ("parameter xxe", """
             <?xml version="1.0"?>
             <!DOCTYPE listings [
               <!ENTITY % dtd SYSTEM "file://\(secretPath)">
               %dtd;
             ]>
             <listings/>
             """, "3:3: error: entity declarations are not allowed (entity \"%dtd\")"),
            ("unparsed", """
             <?xml version="1.0"?>
             <!DOCTYPE listings [<!NOTATION txt SYSTEM "text/plain"><!ENTITY doc SYSTEM \
             "file://\(secretPath)" NDATA txt>]>
             <listings/>
             """, "2:56: error: entity declarations are not allowed (entity \"doc\")"),
            ("quadratic blowup", """
             <?xml version="1.0"?>
             <!DOCTYPE listings [<!ENTITY a "\(big)">]>
             <listings><remarks>\(String(repeating: "&a;", count: 20_000))</remarks></listings>
             """, "2:21: error: entity declarations are not allowed (entity \"a\")"),
        ]
    }

    @Test func entityAttacksAreRefusedFastWithoutReadingTheFile() throws {
        let secretURL = try Self.secretFile()
        defer { try? FileManager.default.removeItem(at: secretURL) }
        for attack in Self.attacks(secretPath: secretURL.path) {
            for chunk in [7, nil] as [Int?] {
                let clock = ContinuousClock()
                let started = clock.now
                let result = parse(Array(attack.document.utf8), chunk: chunk)
                #expect(clock.now - started < .seconds(2), "\(attack.name)")
                #expect(result.error == attack.message, "\(attack.name)")
                #expect(!result.events.joined().contains(Self.secret), "\(attack.name)")
                #expect(!(result.error ?? "").contains(Self.secret), "\(attack.name)")
                #expect(!result.events.contains { $0.hasPrefix("text") }, "\(attack.name)")
            }
        }
    }

    @Test func billionLaughsFailsFast() throws {
        let clock = ContinuousClock()
        let started = clock.now
        let result = parse(try fixture("billion-laughs.xml"))
        #expect(clock.now - started < .seconds(2))
        #expect(result.error == "3:3: error: entity declarations are not allowed (entity \"lol\")")
        #expect(result.events.isEmpty)
    }

    /// A document type declaration naming an external subset is refused at the declaration, like an entity
    /// declaration (it was accepted, the subset silently unread); one with an internal subset only is read.
    @Test(arguments: [
        ("SYSTEM \"file://SECRET\"", "SYSTEM \"file://SECRET\""),
        ("PUBLIC \"-//MLS//DTD Listings//EN\" \"file://SECRET\" [<!ELEMENT listing ANY>]",
         "PUBLIC \"-//MLS//DTD Listings//EN\" \"file://SECRET\""),
    ])
    func externalDTDSubsetIsRefusedAndNeverLoaded(declared: String, shown: String) throws {
        let secretURL = try Self.secretFile()
        defer { try? FileManager.default.removeItem(at: secretURL) }
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE listings \(declared.replacing("SECRET", with: secretURL.path))>
            <listings><listing>plain</listing></listings>
            """
        for chunk in [7, nil] as [Int?] {
            let result = parse(Array(document.utf8), chunk: chunk)
            #expect(result.error == "2:1: error: external DTD subsets are not allowed (DOCTYPE listings "
                + shown.replacing("SECRET", with: secretURL.path) + ")")
            #expect(result.events.isEmpty)
            #expect(!(result.error ?? "").contains(Self.secret))
        }
    }

    /// Nesting deeper than the parser's bound (256 by default, libxml2's own without `XML_PARSE_HUGE`) is refused
    /// at the start tag that crosses it, whatever the depth: 20,000 levels once crashed the process that walked
    /// them. 256 levels are read.
    @Test(arguments: [7, nil] as [Int?])
    func nestingDeeperThanTheBoundIsRefusedAtItsStartTag(chunk: Int?) throws {
        func nested(_ levels: Int) -> [UInt8] {
            Array(("<feed>\n" + String(repeating: "<a>", count: levels - 1) + "x"
                   + String(repeating: "</a>", count: levels - 1) + "\n</feed>").utf8)
        }
        let deepest = parse(nested(256), chunk: chunk)
        #expect(deepest.error == nil)
        #expect(deepest.events.count(where: { $0.hasPrefix("start") }) == 256)
        for levels in [257, 20_000] {
            let result = parse(nested(levels), chunk: chunk)
            // The 257th level is the 256th <a>, on line 2 at column 1 + 255 * 3.
            #expect(result.error == "2:766: error: nesting deeper than 256", "\(levels)")
            #expect(result.events.count(where: { $0.hasPrefix("start") }) == 256, "\(levels)")
        }
    }

    @Test func undeclaredEntityIsAnError() throws {
        let result = parse(Array("<listings>&nbsp;</listings>".utf8))
        #expect(result.error == "1:17: error: Entity 'nbsp' not defined")
    }
}
