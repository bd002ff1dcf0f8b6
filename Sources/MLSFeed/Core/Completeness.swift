/// Whether a run read the whole dump, and if not, why: the rule a `full` run needs before it withdraws anything.
///
/// A dump is incomplete when a RETS reply says it stopped early (`<MAXROWS/>`, reply code 20208), when its
/// `COUNT` promises more rows than were read, or when HTTP paging stopped at `max_pages` instead of at an empty
/// page. A multi-part dump (`source.unit: all`) is judged as a whole.
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

        package init(name: String, records: Int, declaredCount: Int? = nil, maxRows: Bool = false,
                    truncated: Bool = false) {
            self.name = name
            self.records = records
            self.declaredCount = declaredCount
            self.maxRows = maxRows
            self.truncated = truncated
        }
    }

    /// Judges the parts of one dump read in full; `stoppedAtPages` is the page count when paging stopped at
    /// `max_pages`.
    ///
    /// `COUNT` is read two ways, and the dump is complete on `COUNT` if either holds: every part holds at least
    /// the rows its own `COUNT` announces (files split by hand, each counting itself), or every part announces the
    /// same total and the parts together hold exactly that many (offset-paged replies, each repeating the query's
    /// total).
    package init(parts: [Part], stoppedAtPages: Int? = nil) {
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
        if let pages = stoppedAtPages { reasons.append("paging stopped at max_pages (\(pages) pages)") }
        self.reasons = reasons
    }

    /// `MAXROWS, RETS 20208, COUNT 160 > 120 rows read`.
    package var summary: String { reasons.joined(separator: ", ") }
}
