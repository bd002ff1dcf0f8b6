import Testing
@testable import MLSFeed

/// `JobQueue`: which pipeline a free job takes next, without running any.
@Suite struct JobQueueTests {
    /// Takes pipelines while it can, finishing the first running one whenever it cannot, until it is done: the order
    /// in which they start, and how many ran at once at most.
    static func drain(_ sources: [String], jobs: Int) -> (order: [Int], most: Int) {
        var queue = JobQueue(sources: sources)
        var running: [Int] = []
        var order: [Int] = []
        var most = 0
        while !queue.isDone {
            if running.count < jobs, let next = queue.take() {
                running.append(next)
                order.append(next)
                most = max(most, running.count)
            } else {
                queue.finish(running.removeFirst())
            }
        }
        return (order, most)
    }

    @Test(arguments: [
        // One job: the order given.
        (["a", "b", "c"], 1, [0, 1, 2], 1),
        // Two jobs over distinct sources: the order given, two at once.
        (["a", "b", "c", "d"], 2, [0, 1, 2, 3], 2),
        // Two pipelines of source a: the second waits for the first; the job takes c meanwhile.
        (["a", "a", "c"], 2, [0, 2, 1], 2),
        // Every pipeline of one source: one at a time, in order, whatever the jobs.
        (["a", "a", "a"], 4, [0, 1, 2], 1),
        // More jobs than pipelines.
        (["a", "b"], 8, [0, 1], 2),
    ])
    func takesTheFirstWaitingPipelineWhoseSourceIsFree(sources: [String], jobs: Int, order: [Int], most: Int) {
        let drained = Self.drain(sources, jobs: jobs)
        #expect(drained.order == order)
        #expect(drained.most == most)
    }

    @Test func aPipelineWhoseSourceRunsWaitsUntilThatOneFinishes() {
        var queue = JobQueue(sources: ["a", "a", "b"])
        #expect(queue.take() == 0)
        #expect(queue.take() == 2)
        #expect(queue.take() == nil)
        #expect(!queue.isDone)
        queue.finish(2)
        #expect(queue.take() == nil, "source a still runs")
        queue.finish(0)
        #expect(queue.take() == 1)
        #expect(queue.take() == nil)
        queue.finish(1)
        #expect(queue.isDone)
        #expect(queue.notStarted.isEmpty)
    }

    @Test func aStopStartsNothingMoreAndLeavesTheWaitingNotStarted() {
        var queue = JobQueue(sources: ["a", "b", "c", "d"])
        #expect(queue.take() == 0)
        #expect(queue.take() == 1)
        queue.stop()
        #expect(queue.take() == nil)
        #expect(!queue.isDone, "two still run")
        queue.finish(0)
        queue.finish(1)
        #expect(queue.isDone)
        #expect(queue.notStarted == [2, 3])
    }
}
