import Foundation

/// Counters the stages update as the run goes (read, rejected, issues, warnings), safe across threads.
final class Totals: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var read = 0
    private(set) var rejected = 0
    private(set) var bytes: Int64 = 0
    private(set) var windowDuplicates = 0
    private(set) var removedCharacters = 0
    private(set) var warnings: [String] = []
    private(set) var issues = IssueTally()
    private(set) var rejectReasons = IssueTally()
    private(set) var sampleRejects: [String] = []
    /// What each document read in full said about itself, in order (for `Completeness`).
    private(set) var parts: [Completeness.Part] = []
    /// Each document's header time (`generated`), as written; nil where it had none.
    private(set) var generated: [String?] = []
    /// A replicated resource's last record read to the end of its page: its replication field's and tie-break key's
    /// raw values (see `ParseStage.replicated`).
    private(set) var lastReplicated: (timestamp: String, key: String)?

    private func locked(_ body: () -> Void) {
        lock.lock()
        body()
        lock.unlock()
    }

    func addRead(_ n: Int) { locked { read += n } }
    func addBytes(_ n: Int) { locked { bytes += Int64(n) } }
    func addRemoved(_ n: Int) { locked { removedCharacters += n } }
    func addWarnings(_ w: [String]) { locked { warnings += w } }
    func setWindowDuplicates(_ n: Int) { locked { windowDuplicates = n } }
    func setLastReplicated(_ last: (timestamp: String, key: String)) { locked { lastReplicated = last } }

    /// Per mapping path of a structured feed: matches over the documents read so far.
    private(set) var pathMatches: [String: PathMatches] = [:]

    func addPathMatches(_ matches: [String: PathMatches]) {
        locked {
            for (path, counts) in matches {
                pathMatches[path, default: PathMatches()].records += counts.records
                pathMatches[path, default: PathMatches()].repeated += counts.repeated
            }
        }
    }

    /// Records a document read to its end.
    func addPart(_ part: Completeness.Part, generated header: String?) {
        locked {
            parts.append(part)
            generated.append(header)
        }
    }

    func addValidated(_ batch: ValidatedBatch, sampleLimit: Int) {
        locked {
            rejected += batch.rejects.count
            removedCharacters += batch.removedCharacters
            issues.merge(batch.issues)
            rejectReasons.merge(batch.rejectReasons)
            for reject in batch.rejects where sampleRejects.count < sampleLimit {
                sampleRejects.append(reject.diagnostic)
            }
        }
    }

    /// Documents (inputs, pages) read to their end so far.
    var documentCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return parts.count
    }

    var snapshot: (read: Int, bytes: Int64, rejected: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (read, bytes, rejected)
    }
}
