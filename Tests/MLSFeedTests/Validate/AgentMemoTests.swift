import Foundation
import Testing
@testable import MLSFeed

/// Embedded agents are made once per distinct set of raw agent fields and then taken from the workers' memos:
/// the output must be exactly what making every agent afresh gives.
@Suite struct AgentMemoTests {
    typealias V = ValidatorTests

    static func records() -> [RawRecord] {
        // Three agents, one with a bad email (an issue for every listing naming it), one without an id (known by its
        // email), repeated across listings in changing order.
        let agents: [[(String, String)]] = [
            [("la_id", "A1"), ("la_first_name", "Ann"), ("la_member_email", "ann@example.com")],
            [("la_id", "A2"), ("la_first_name", "Bo"), ("la_member_email", "not-an-email")],
            [("la_id", ""), ("la_first_name", "Cy"), ("la_member_email", "cy@example.com")],
        ]
        return (0..<60).map { i in
            V.record([("mls_number", "M\(i)"), ("status", "A"), ("list_price", "\(100_000 + i)")]
                     + agents[(i * 7 + i / 5) % 3], line: i + 1, ordinal: i)
        }
    }

    @Test func memoizedAgentsEqualAgentsMadeAfresh() throws {
        let mapping = try V.mapping()
        let normalizer = Normalizer(mapping: mapping, zone: nil)
        let validator = Validator(mapping: mapping)
        let records = Self.records()

        var fresh = ValidatedBatch()
        for record in records {
            let one = validator.process(normalizer.process([record]))
            fresh.records += one.records
            fresh.issues.merge(one.issues)
        }
        var normalized = Normalizer.ChildMemo()
        var validated = Validator.Shared()
        var memoized = ValidatedBatch()
        for start in stride(from: 0, to: records.count, by: 25) {
            let batch = Array(records[start..<min(start + 25, records.count)])
            let out = validator.process(normalizer.process(batch, children: &normalized), shared: &validated)
            memoized.records += out.records
            memoized.issues.merge(out.issues)
        }
        #expect(normalized.count == 3)
        #expect(validated.memo.count == 3)
        #expect(memoized.records == fresh.records)
        #expect(memoized.issues == fresh.issues)
        #expect(memoized.records.filter { $0.entity == .agent }.count == 60)
        let agentOf7 = try #require(memoized.records.first { $0.entity == .agent && $0.ordinal == 7 })
        #expect(agentOf7.position.line == 8)
        let bad = records.filter { $0.value("la_member_email") == "not-an-email" }.count
        #expect(bad > 10)
        #expect(memoized.issues.lines == ["agent.email: \(bad) not an email address (\"not-an-email\")"])
    }

    /// A sole worker passes an agent on only when it is new or differs from the last one passed for its id: what
    /// the dedupe stage passes of all of them.
    @Test func aSoleWorkerPassesWhatTheDedupeStageWouldPass() throws {
        let mapping = try V.mapping()
        let normalizer = Normalizer(mapping: mapping, zone: nil)
        let validator = Validator(mapping: mapping)
        let coerced = normalizer.process(Self.records())
        let all = validator.process(coerced)
        var inOrder = Validator.Shared(inOrder: true)
        var filtered: [NormalizedRecord] = []
        for start in stride(from: 0, to: coerced.count, by: 25) {
            filtered += validator.process(Array(coerced[start..<min(start + 25, coerced.count)]), shared: &inOrder)
                .records
        }
        func deduped(_ records: [NormalizedRecord]) -> [NormalizedRecord] {
            var deduper = Deduper(windowCapacity: 1000, hold: 0)
            return (deduper.process(records: records, rejects: []) + deduper.finish()).compactMap { item in
                if case .record(let record) = item { return record }
                return nil
            }
        }
        #expect(filtered.filter { $0.entity == .agent }.count < all.records.filter { $0.entity == .agent }.count)
        #expect(filtered.filter { $0.entity == .listing } == all.records.filter { $0.entity == .listing })
        #expect(deduped(filtered) == deduped(all.records))
    }

    @Test func aFullMemoStartsOver() {
        var memo = BoundedMemo<Int>(limit: 3)
        for key in UInt64(0)..<3 { memo.store(Int(key), for: key) }
        #expect(memo.count == 3)
        memo.store(9, for: 9)
        #expect(memo.count == 1)
        #expect(memo[9] == 9)
        #expect(memo[0] == nil)
    }
}
