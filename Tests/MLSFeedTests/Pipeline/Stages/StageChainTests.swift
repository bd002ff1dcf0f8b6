import Testing
@testable import MLSFeed

/// `StageChain`: the second stage takes every batch the first yields, in order, on the same call; each part's
/// counts are recorded under its own name.
@Suite struct StageChainTests {
    /// Splits a batch of numbers in two halves and holds back the last number of the input until `finish`.
    struct Halves: Stage {
        static let name = "halves"
        var held: [Int] = []

        mutating func process(_ batch: [Int]) throws -> [[Int]] {
            let all = held + batch
            held = Array(all.suffix(1))
            let kept = Array(all.dropLast())
            return [Array(kept.prefix(kept.count / 2)), Array(kept.dropFirst(kept.count / 2))]
        }

        mutating func finish() throws -> [[Int]] { held.isEmpty ? [] : [held] }
    }

    /// Doubles each number; remembers every batch it saw and yields one more batch `[-1]` at `finish`.
    struct Doubler: Stage {
        static let name = "doubler"
        var seen: [[Int]] = []
        var pushed: [Int] = []

        mutating func process(_ batch: [Int]) throws -> [[Int]] {
            seen.append(batch)
            return [batch.map { $0 * 2 }]
        }

        mutating func finish() throws -> [[Int]] { [[-1]] }

        mutating func didPush(_ sequence: Int) throws { pushed.append(sequence) }
    }

    @Test func theSecondStageTakesEveryBatchOfTheFirstInOrderThenBothFinish() throws {
        var chain = StageChain(first: Halves(), second: Doubler())
        let control = RunControl()
        #expect(try chain.processRecorded([1, 2, 3, 4, 5], control: control) == [[2, 4], [6, 8]])
        #expect(try chain.processRecorded([6, 7], control: control) == [[10], [12]])
        #expect(try chain.finishRecorded(control: control) == [[14], [-1]])
        #expect(chain.second.seen == [[1, 2], [3, 4], [5], [6], [7]])
        try chain.didPush(3)
        #expect(chain.second.pushed == [3])
    }

    @Test func eachPartIsRecordedUnderItsOwnName() throws {
        var chain = StageChain(first: Halves(), second: Doubler())
        let control = RunControl()
        _ = try chain.processRecorded([1, 2, 3, 4, 5], control: control)
        _ = try chain.processRecorded([6, 7], control: control)
        _ = try chain.finishRecorded(control: control)
        let metrics = control.stageMetrics
        #expect(metrics.map(\.name) == ["halves", "doubler"])
        // Halves: 2 batches of 7 numbers in, 6 out by `process` and the held 7 by `finish`.
        #expect(metrics.map(\.batches) == [2, 5])
        #expect(metrics.map(\.itemsIn) == [7, 7])
        #expect(metrics.map(\.itemsOut) == [7, 8])
    }

    @Test func unrecordedProcessingGivesTheSameBatches() throws {
        var recorded = StageChain(first: Halves(), second: Doubler())
        var plain = StageChain(first: Halves(), second: Doubler())
        let control = RunControl()
        for batch in [[1, 2, 3], [4], [5, 6, 7, 8]] {
            #expect(try plain.process(batch) == recorded.processRecorded(batch, control: control))
        }
        #expect(try plain.finish() == recorded.finishRecorded(control: control))
    }
}
