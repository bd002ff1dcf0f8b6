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

    @Test func externalDTDIsNeverLoaded() throws {
        let secretURL = try Self.secretFile()
        defer { try? FileManager.default.removeItem(at: secretURL) }
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE listings SYSTEM "file://\(secretURL.path)">
            <listings><listing>plain</listing></listings>
            """
        let result = parse(Array(document.utf8))
        #expect(result.error == nil)
        #expect(result.events.contains("text \"plain\""))
        #expect(!result.events.joined().contains(Self.secret))
    }

    @Test func undeclaredEntityIsAnError() throws {
        let result = parse(Array("<listings>&nbsp;</listings>".utf8))
        #expect(result.error == "1:17: error: Entity 'nbsp' not defined")
    }
}
