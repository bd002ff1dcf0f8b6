/// Runs a `Stage` between two bounded queues on the calling thread, recording its busy time and counts.
enum StageDriver {
    /// How a stage's output batches are numbered for the ordered queue after it.
    enum Numbering {
        /// One output per input, numbered as its input (workers of the same stage run side by side).
        case keepInput
        /// The stage's own count from 0 (a single worker that may yield any number of batches per input).
        case own
    }

    /// Pops every batch of `input`, hands what `stage` yields to `output` (nil: the last stage), then its `finish`.
    /// Busy time is the stage's own work only: waiting on a queue is not counted.
    static func run<S: Stage>(_ stage: inout S, from input: BoundedQueue<S.Input>, to output: BoundedQueue<S.Output>?,
                              numbering: Numbering, control: RunControl) throws {
        var next = 0
        func hand(_ batches: consuming [S.Output], input sequence: Int) throws {
            let count = batches.count
            for batch in MovingIterator(consume batches) {
                let number: Int
                switch numbering {
                case .keepInput:
                    precondition(count == 1, "\(S.name) must yield one batch per input batch")
                    number = sequence
                case .own:
                    number = next
                    next += 1
                }
                try output?.push(consume batch, sequence: number)
                try stage.didPush(number)
            }
        }
        while let (sequence, batch) = try input.pop() {
            try hand(try stage.processRecorded(consume batch, control: control), input: sequence)
        }
        try hand(try stage.finishRecorded(control: control), input: next)
    }
}
