/// Two stages on one worker thread: each batch the first yields goes straight into the second.
///
/// Normalize and validate run so when they have as many workers (the default): a batch is validated by the thread
/// that normalized it, while it is still in cache, and its coerced records are freed there, with no queue, thread
/// hand-off or allocator lock between the two. Each part's busy time and counts are recorded under its own name.
struct StageChain<First: Stage, Second: Stage>: Stage where First.Output == Second.Input {
    static var name: String { "\(First.name)+\(Second.name)" }

    var first: First
    var second: Second

    mutating func process(_ batch: consuming First.Input) throws -> [Second.Output] {
        var out: [Second.Output] = []
        for middle in MovingIterator(try first.process(consume batch)) { out += try second.process(consume middle) }
        return out
    }

    mutating func finish() throws -> [Second.Output] {
        var out: [Second.Output] = []
        for middle in MovingIterator(try first.finish()) { out += try second.process(consume middle) }
        return out + (try second.finish())
    }

    mutating func didPush(_ sequence: Int) throws {
        try second.didPush(sequence)
    }

    mutating func processRecorded(_ batch: consuming First.Input, control: RunControl) throws -> [Second.Output] {
        var out: [Second.Output] = []
        for middle in MovingIterator(try first.processRecorded(consume batch, control: control)) {
            out += try second.processRecorded(consume middle, control: control)
        }
        return out
    }

    mutating func finishRecorded(control: RunControl) throws -> [Second.Output] {
        var out: [Second.Output] = []
        for middle in MovingIterator(try first.finishRecorded(control: control)) {
            out += try second.processRecorded(consume middle, control: control)
        }
        return out + (try second.finishRecorded(control: control))
    }
}
