import Foundation

/// Tells the fetch stage, page by page, what the parse stage found in a page: whether it held records (paged HTTP
/// inputs stop at the first page without any) and the next page's link (an OData page's `@odata.nextLink`).
final class PageFeedback: @unchecked Sendable {
    /// What one page held.
    struct Verdict: Sendable {
        var hadRecords: Bool
        var nextLink: String?
    }

    private let condition = NSCondition()
    private var verdicts: [Int: Verdict] = [:]
    private var cancelled = false

    func report(document: Int, _ verdict: Verdict) {
        condition.lock()
        verdicts[document] = verdict
        condition.broadcast()
        condition.unlock()
    }

    func wait(document: Int) throws -> Verdict {
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
