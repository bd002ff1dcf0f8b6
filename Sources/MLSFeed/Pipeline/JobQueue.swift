/// Which pipeline of a several-pipeline `mlsfeed run` a free job takes next: the first one still waiting, in the
/// order given, whose source no running job is loading. Two pipelines of one source would only wait for each other's
/// lock, so they run one after the other, in their order, while the jobs take the other sources' pipelines. A stop (a
/// signal) starts nothing more; what was waiting then is never started.
///
/// A pure value: the CLI's jobs drive it under their lock and wait for a job to finish when `take` has nothing.
package struct JobQueue: Sendable, Equatable {
    /// Each pipeline's source, in the order given.
    package let sources: [String]
    /// The pipelines not started yet, in order.
    package private(set) var waiting: [Int]
    /// The pipelines a job runs now.
    package private(set) var running: Set<Int> = []
    /// Whether a stop came: nothing more starts.
    package private(set) var stopped = false

    /// A queue of pipelines by their sources, none started.
    package init(sources: [String]) {
        self.sources = sources
        waiting = Array(sources.indices)
    }

    /// The next pipeline to run, now counted running: the first waiting one whose source no running pipeline has.
    /// nil when none may start now (wait for `finish`), or ever (`isDone`, or stopped).
    package mutating func take() -> Int? {
        guard !stopped else { return nil }
        let busy = Set(running.map { sources[$0] })
        guard let position = waiting.firstIndex(where: { !busy.contains(sources[$0]) }) else { return nil }
        let index = waiting.remove(at: position)
        running.insert(index)
        return index
    }

    /// A running pipeline ended: its source is free for the next pipeline that names it.
    package mutating func finish(_ index: Int) {
        precondition(running.remove(index) != nil, "pipeline \(index) was not running")
    }

    /// Starts nothing more; the waiting pipelines stay not started.
    package mutating func stop() {
        stopped = true
    }

    /// Whether no job has anything left to do: nothing runs, and nothing waits or nothing more may start.
    package var isDone: Bool {
        running.isEmpty && (waiting.isEmpty || stopped)
    }

    /// The pipelines that never started because of a stop (empty otherwise), in order.
    package var notStarted: [Int] {
        stopped ? waiting : []
    }
}
