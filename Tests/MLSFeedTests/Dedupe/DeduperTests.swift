import Testing
@testable import MLSFeed

@Suite struct DeduperTests {
    static func listing(_ key: String, _ timestamp: String?, ordinal: Int, hash: String = "h") -> NormalizedRecord {
        var values: [String: Value] = ["listing_id": .text(key)]
        if let timestamp { values["modification_timestamp"] = .timestamp(timestamp) }
        return NormalizedRecord(entity: .listing, values: values, extra: [],
                                position: SourcePosition(file: "f", line: ordinal + 1, column: 1), ordinal: ordinal,
                                contentHash: hash)
    }

    static func agent(_ key: String, ordinal: Int, hash: String) -> NormalizedRecord {
        NormalizedRecord(entity: .agent, values: ["agent_mls_id": .text(key)], extra: [],
                         position: SourcePosition(file: "f", line: ordinal + 1, column: 1), ordinal: ordinal,
                         contentHash: hash)
    }

    static func ordinals(_ items: [Deduper.Item]) -> [String] {
        items.map {
            switch $0 {
            case .record(let r): return "\(r.entity == .listing ? "L" : "A")\(r.ordinal)"
            case .reject(let r): return "R\(r.ordinal)"
            }
        }
    }

    @Test func heldSupersededCopyIsDroppedBeforeItLeaves() {
        var deduper = Deduper(windowCapacity: 100, hold: 10)
        let out = deduper.process(records: [
            Self.listing("1", "2026-11-01T00:00:00Z", ordinal: 0),
            Self.listing("2", "2026-11-01T00:00:00Z", ordinal: 1),
            Self.listing("1", "2026-11-02T00:00:00Z", ordinal: 2),
            Self.listing("2", "2026-10-01T00:00:00Z", ordinal: 3),
        ], rejects: [Reject(entity: .listing, key: "9", position: SourcePosition(file: "f", line: 2, column: 1),
                            ordinal: 1, reasons: [], raw: [])])
        #expect(out.isEmpty)
        #expect(Self.ordinals(deduper.finish()) == ["L1", "R1", "L2"])
        #expect(deduper.droppedListings == 2)
        #expect(deduper.supersededListings == 0)
    }

    @Test func aCopySupersededTwiceWhileHeldLeavesOnlyTheNewest() {
        var deduper = Deduper(windowCapacity: 100, hold: 10)
        let out = deduper.process(records: [
            Self.listing("1", "2026-11-01T00:00:00Z", ordinal: 0),
            Self.listing("2", nil, ordinal: 1),
            Self.listing("1", "2026-11-02T00:00:00Z", ordinal: 2),
            Self.listing("1", "2026-11-03T00:00:00Z", ordinal: 3),
        ], rejects: [])
        #expect(out.isEmpty)
        #expect(Self.ordinals(deduper.finish()) == ["L1", "L3"])
        #expect(deduper.droppedListings == 2)
        #expect(deduper.supersededListings == 0)
    }

    /// 21,000 listings in batches of 1,000, each MLS number twice 1,500 records apart (the later copy wins the tie):
    /// every older copy is still held (hold 5,000) when its newer copy comes, across batches and across the held
    /// array's compactions, and is dropped there.
    @Test func heldCopiesAreFoundAcrossBatchesAndCompactions() {
        var deduper = Deduper(windowCapacity: 10_000, hold: 5_000)
        var out: [Deduper.Item] = []
        for batch in 0..<21 {
            let records = (batch * 1_000..<(batch + 1) * 1_000).map { n in
                Self.listing("k\(n % 3_000 < 1_500 ? n : n - 1_500)", nil, ordinal: n)
            }
            out += deduper.process(records: records, rejects: [])
        }
        out += deduper.finish()
        let got = Self.ordinals(out)
        let expected = (0..<21_000).filter { $0 % 3_000 >= 1_500 }.map { "L\($0)" }
        let difference = zip(got, expected).first { $0 != $1 }
        #expect(got.count == expected.count && difference == nil,
                "\(got.count) out, first difference \(difference as Any)")
        #expect(deduper.droppedListings == 10_500)
        #expect(deduper.supersededListings == 0)
    }

    /// A window smaller than the hold forgets an MLS number while its copy is still held: the next copy is kept
    /// beside it (both leave; the merge resolves them), and a third copy drops only the second.
    @Test func aNumberTheWindowForgotKeepsItsHeldCopyForTheMerge() {
        var deduper = Deduper(windowCapacity: 2, hold: 10)
        let out = deduper.process(records: [
            Self.listing("1", nil, ordinal: 0),
            Self.listing("2", nil, ordinal: 1),
            Self.listing("3", nil, ordinal: 2),
            Self.listing("1", nil, ordinal: 3),
            Self.listing("1", nil, ordinal: 4),
        ], rejects: [])
        #expect(out.isEmpty)
        #expect(Self.ordinals(deduper.finish()) == ["L0", "L1", "L2", "L4"])
        #expect(deduper.droppedListings == 1)
        #expect(deduper.supersededListings == 0)
    }

    @Test func copyThatAlreadyLeftIsLeftToTheMerge() {
        var deduper = Deduper(windowCapacity: 100, hold: 1)
        var out = deduper.process(records: [Self.listing("1", nil, ordinal: 0), Self.listing("2", nil, ordinal: 1)],
                                  rejects: [])
        #expect(Self.ordinals(out) == ["L0"])
        out = deduper.process(records: [Self.listing("1", nil, ordinal: 2)], rejects: [])
        #expect(Self.ordinals(out + deduper.finish()) == ["L1", "L2"])
        #expect(deduper.supersededListings == 1)
        #expect(deduper.droppedListings == 0)
    }

    @Test func agentsPassOnlyWhenNewOrChanged() {
        var deduper = Deduper(windowCapacity: 100, hold: 0)
        let out = deduper.process(records: [
            Self.agent("A", ordinal: 0, hash: "x"), Self.agent("A", ordinal: 1, hash: "x"),
            Self.agent("A", ordinal: 2, hash: "y"), Self.agent("B", ordinal: 3, hash: "x"),
        ], rejects: [])
        #expect(Self.ordinals(out) == ["A0", "A2", "A3"])
        #expect(deduper.agentRepeats == 1)
    }
}
