import Foundation
import Testing
@testable import MLSFeed

/// `LoadStage`: a batch is written when its rows (records to stage and rejects) reach the batch size, or when it
/// holds `keysPerBatch` batches' worth of records, most of them recognised copies; `finish` writes what is left.
@Suite struct LoadStageTests {
    /// Remembers every write as (records, recognised copies among them, rejects).
    final class Writes: RecordSink, @unchecked Sendable {
        var writes: [(records: Int, keys: Int, rejects: Int)] = []

        func write(_ records: [NormalizedRecord], rejects: [Reject]) throws {
            writes.append((records.count, records.filter(\.isRecognisedKey).count, rejects.count))
        }

        func commit(_ totals: RunTotals) throws -> LoadResult { LoadResult(runID: 1) }

        func fail(_ message: String, interrupted: Bool, totals: RunTotals) {}
    }

    static let position = SourcePosition(file: "feed.xml", line: 1, column: 1)

    /// A listing: a recognised copy (key and timestamp only) or a full record to stage.
    static func listing(_ ordinal: Int, recognised: Bool) -> NormalizedRecord {
        var columns = [Value?](repeating: nil, count: Entity.listing.columns.count)
        columns[0] = .text("L\(ordinal)")
        columns[Column.listingModificationIndex] = .timestamp("2026-11-28T10:00:00Z")
        return NormalizedRecord(entity: .listing, columns: columns, extra: [], position: position, ordinal: ordinal,
                                isStored: recognised)
    }

    static func reject(_ ordinal: Int) -> Reject {
        Reject(entity: .listing, key: "R\(ordinal)", position: position, ordinal: ordinal,
               reasons: [RejectReason(field: "list_price", rawValue: "call agent", rule: "not a price")], raw: [])
    }

    /// Feeds `batches` of (records to stage, recognised copies, rejects) to a stage of batch size 10, then finishes.
    static func writes(_ batches: [(staged: Int, keys: Int, rejects: Int)]) throws -> [[Int]] {
        let sink = Writes()
        var stage = LoadStage(sink: sink, batchSize: 10)
        var ordinal = 0
        for batch in batches {
            var records: [NormalizedRecord] = []
            for i in 0..<(batch.staged + batch.keys) {
                records.append(listing(ordinal, recognised: i >= batch.staged))
                ordinal += 1
            }
            let rejects = (0..<batch.rejects).map { reject(ordinal + $0) }
            ordinal += batch.rejects
            _ = try stage.process(DedupedBatch(records: records, rejects: rejects))
        }
        _ = try stage.finish()
        return sink.writes.map { [$0.records, $0.keys, $0.rejects] }
    }

    @Test(arguments: [
        // A first load: every record a row, a write at each 10 rows.
        ([(6, 0, 0), (6, 0, 0), (3, 0, 0)], [[12, 0, 0], [3, 0, 0]]),
        // Rejects count as rows.
        ([(4, 0, 3), (2, 0, 2)], [[6, 0, 5]]),
        // A delta: recognised copies are no rows; the write comes at 10 rows...
        ([(2, 18, 1), (3, 27, 1), (3, 7, 2)], [[60, 52, 4]]),
        // ...or at 8 batches' worth (80) of records and rejects, whichever comes first.
        ([(1, 39, 0), (1, 39, 0), (1, 19, 0)], [[80, 78, 0], [20, 19, 0]]),
        // Nothing held: nothing written.
        ([], []),
    ] as [([(Int, Int, Int)], [[Int]])])
    func writesWhenTheRowsOrTheRecordsHeldReachTheirBound(batches: [(Int, Int, Int)], expected: [[Int]]) throws {
        #expect(try Self.writes(batches.map { (staged: $0.0, keys: $0.1, rejects: $0.2) }) == expected)
    }
}
