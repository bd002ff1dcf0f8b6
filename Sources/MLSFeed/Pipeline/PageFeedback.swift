import Foundation

/// Tells the fetch stage, page by page, whether the parse stage found records in a page (paged HTTP inputs stop
/// at the first page without any).
final class PageFeedback: @unchecked Sendable {
    private let condition = NSCondition()
    private var verdicts: [Int: Bool] = [:]
    private var cancelled = false

    func report(document: Int, hadRecords: Bool) {
        condition.lock()
        verdicts[document] = hadRecords
        condition.broadcast()
        condition.unlock()
    }

    func wait(document: Int) throws -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while verdicts[document] == nil && !cancelled { condition.wait() }
        if cancelled { throw CancellationError() }
        return verdicts.removeValue(forKey: document)!
    }

    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
