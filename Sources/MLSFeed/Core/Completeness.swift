/// Whether a run read the whole dump, and if not, why: the rule a `full` run needs before it withdraws anything.
///
/// A dump is incomplete when a RETS reply says it stopped early (`<MAXROWS/>`, reply code 20208), when its
/// `COUNT` (`@odata.count`) promises more rows than were read, when it ends with an `@odata.nextLink` nobody
/// followed, when HTTP paging stopped at `max_pages` instead of at an empty page, when a request budget paused it,
/// or when the run ended before its input was read to the end. A multi-part dump (`source.unit: all`) is judged as
/// a whole; the pages of one paged input are one part.
package struct Completeness: Sendable, Hashable {
    /// Why the dump is incomplete (`MAXROWS`, `RETS 20208`, `COUNT 160 > 120 rows read`); empty when complete.
    package var reasons: [String]

    package var isComplete: Bool { reasons.isEmpty }

    package init(reasons: [String] = []) {
        self.reasons = reasons
    }

    /// What one part (document) of a dump said about itself.
    package struct Part: Sendable, Hashable {
        /// The input (file, URL, page) as messages name it.
        package var name: String
        /// Records read from it.
        package var records: Int
        /// Records it says it holds (RETS `COUNT Records`), when it says.
        package var declaredCount: Int?
        /// RETS `<MAXROWS/>`: the server stopped at its row limit.
        package var maxRows = false
        /// RETS reply code 20208 (in `RETS` or `RETS-STATUS`): the result was truncated.
        package var truncated = false
        /// It names a next page (`@odata.nextLink`).
        package var nextLink = false
        /// A page after the first of a paged input: it continues the part before it.
        package var laterPage = false

        package init(name: String, records: Int, declaredCount: Int? = nil, maxRows: Bool = false,
                    truncated: Bool = false, nextLink: Bool = false, laterPage: Bool = false) {
            self.name = name
            self.records = records
            self.declaredCount = declaredCount
            self.maxRows = maxRows
            self.truncated = truncated
            self.nextLink = nextLink
            self.laterPage = laterPage
        }
    }

    /// Why a run that ended before its input was read to the end is incomplete (it failed or was stopped).
    package static let unfinishedReason = "the run ended before its input was read to the end"

    /// The completeness of a run that ended before its input was read to the end.
    package static var unfinished: Completeness { Completeness(reasons: [unfinishedReason]) }

    /// The pages of each paged input folded into one part: its records summed, the count its first page gives (a
    /// server repeats the query's total on every page), its trailers from any page, its next link the last page's.
    static func folded(_ parts: [Part]) -> [Part] {
        var out: [Part] = []
        for part in parts {
            guard part.laterPage, var first = out.popLast() else {
                out.append(part)
                continue
            }
            first.records += part.records
            first.declaredCount = first.declaredCount ?? part.declaredCount
            first.maxRows = first.maxRows || part.maxRows
            first.truncated = first.truncated || part.truncated
            first.nextLink = part.nextLink
            out.append(first)
        }
        return out
    }

    /// Judges the parts of one dump read in full; `stoppedAtPages` is the page count when paging stopped at
    /// `max_pages`, `pausedAt` the request budget that stopped it (`7200 requests per hour`).
    ///
    /// The pages of a paged input are first folded into one part (`folded`): its first page's count is the whole
    /// input's. `COUNT` is then read two ways, and the dump is complete on `COUNT` if either holds: every part holds
    /// at least the rows its own `COUNT` announces (files split by hand, each counting itself), or every part
    /// announces the same total and the parts together hold exactly that many (page files, each repeating the
    /// query's total). The last part naming a next page nobody followed makes the dump incomplete, unless paging
    /// stopped for a reason of its own (`max_pages`, a budget), which is the reason then.
    package init(parts: [Part], stoppedAtPages: Int? = nil, pausedAt: String? = nil) {
        let parts = Self.folded(parts)
        var reasons: [String] = []
        let named = parts.count > 1
        func tagged(_ reason: String, _ part: Part) -> String { named ? "\(reason) in \(part.name)" : reason }
        for part in parts where part.maxRows { reasons.append(tagged("MAXROWS", part)) }
        for part in parts where part.truncated { reasons.append(tagged("RETS 20208", part)) }
        let counted = parts.filter { $0.declaredCount != nil }
        if !counted.isEmpty {
            let eachHoldsItsOwn = counted.allSatisfy { $0.records >= $0.declaredCount! }
            let totals = Set(counted.map { $0.declaredCount! })
            let read = parts.reduce(0) { $0 + $1.records }
            let sharedTotal = counted.count == parts.count && parts.count > 1 && totals.count == 1
                && totals.first! == read
            if !eachHoldsItsOwn && !sharedTotal {
                let declared = counted.reduce(0) { $0 + $1.declaredCount! }
                let countedRead = counted.reduce(0) { $0 + $1.records }
                reasons.append("COUNT \(declared) > \(countedRead) rows read")
            }
        }
        if let last = parts.last, last.nextLink, stoppedAtPages == nil, pausedAt == nil {
            reasons.append(tagged("@odata.nextLink not followed", last))
        }
        if let pages = stoppedAtPages { reasons.append("paging stopped at max_pages (\(pages) pages)") }
        if let budget = pausedAt { reasons.append("paused at \(budget)") }
        self.reasons = reasons
    }

    /// `MAXROWS, RETS 20208, COUNT 160 > 120 rows read`.
    package var summary: String { reasons.joined(separator: ", ") }
}
