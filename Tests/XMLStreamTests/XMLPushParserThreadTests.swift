import Foundation
import Testing
import XMLStream

/// The parser's own thread (libxml2's pull parser reading what `feed` hands it): it never outlives the parser, and
/// what the delegate hears does not depend on how the document was cut.
@Suite struct XMLPushParserThreadTests {
    /// What a parser run on another thread left: its delegate's events, and whether the thread got to the end.
    final class Outcome: @unchecked Sendable {
        // @unchecked: written by the one thread the test starts, read after it signalled `done`.
        var events: [String] = []
        var error: String?
        let done = DispatchSemaphore(value: 0)
    }

    /// Runs `body` with a new parser on a thread of its own and waits at most ten seconds for it, parser dropped.
    static func run(_ body: @escaping @Sendable (XMLPushParser) throws -> Void) -> (finished: Bool, Outcome) {
        let outcome = Outcome()
        Thread.detachNewThread {
            let recorder = EventRecorder()
            do {
                let parser = try XMLPushParser(delegate: recorder)
                parser.capturesText = true
                try body(parser)
            } catch {
                outcome.error = "\(error)"
            }
            outcome.events = recorder.events
            outcome.done.signal()
        }
        return (outcome.done.wait(timeout: .now() + 10) == .success, outcome)
    }

    static let document = Array(("<feed>" + String(repeating: "<listing><city>San Diego</city></listing>", count: 300)
        + "</feed>").utf8)

    /// Dropped mid-document, its thread waiting for input, a parser goes at once and its delegate hears no more.
    @Test(arguments: [10, 5_000, document.count - 1])
    func aParserDroppedMidDocumentStopsItsThread(fed: Int) {
        let (finished, outcome) = Self.run { parser in try parser.feed(Self.document[..<fed]) }
        let (_, whole) = Self.run { parser in
            try parser.feed(Self.document[...])
            try parser.finish()
        }
        #expect(finished)
        #expect(outcome.error == nil)
        // What it heard is the start of the document's events, and nothing past the bytes fed (a listing is 41).
        #expect(outcome.events == Array(whole.events.prefix(outcome.events.count)))
        #expect(outcome.events.count <= 1 + 5 * ((fed - 6) / 41))
    }

    /// Fed in any cut and finished, the document gives the same events; a parser that was never fed finishes with
    /// libxml2's error for an empty document.
    @Test(arguments: [1, 3_999, 4_000, 4_001, 65_536])
    func everyCutGivesTheSameEvents(chunk: Int) {
        let (finished, outcome) = Self.run { parser in
            var offset = 0
            while offset < Self.document.count {
                try parser.feed(Self.document[offset..<min(Self.document.count, offset + chunk)])
                offset += chunk
            }
            try parser.finish()
        }
        #expect(finished)
        #expect(outcome.error == nil)
        #expect(outcome.events.count == 1 + 300 * 5 + 1)
        #expect(outcome.events.filter { $0 == "text \"San Diego\"" }.count == 300)
    }

    @Test func aParserNeverFedFinishesWithAnError() {
        let (finished, outcome) = Self.run { parser in try parser.finish() }
        #expect(finished)
        #expect(outcome.error == "1:1: error: Document is empty")
        #expect(outcome.events.isEmpty)
    }
}
