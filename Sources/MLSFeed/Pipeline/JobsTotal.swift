import Foundation

/// The end of a several-pipeline `mlsfeed run`: the total line (or object) over every pipeline, and the exit code,
/// the worst of the pipelines'.
package struct JobsTotal: Sendable {
    /// The pipelines that ran, in the order given.
    package var outcomes: [PipelineOutcome]
    /// The names of the pipelines a stop left not started, in the order given.
    package var notStarted: [String]
    /// The exit code of the signal that stopped the invocation, when one did.
    package var signalCode: Int32?
    /// Wall time of the whole invocation.
    package var seconds: Double

    package init(outcomes: [PipelineOutcome], notStarted: [String] = [], signalCode: Int32? = nil, seconds: Double) {
        self.outcomes = outcomes
        self.notStarted = notStarted
        self.signalCode = signalCode
        self.seconds = seconds
    }

    /// The worst of several exit codes: a signal's (130, 143) before all, then 2 (configuration: a person must fix
    /// it, and every run would fail alike), 1 (a bad input: a person must look), 3 (a safety rule refused a dump: a
    /// person must decide), 4 (worth a retry later), 0. A code that needs a person beats one that a retry may fix,
    /// so a scheduler that retries exit 4 does not retry away a failure someone must see.
    package static func worst(_ codes: [Int32]) -> Int32 {
        codes.max { rank($0) < rank($1) } ?? 0
    }

    /// Where a code stands in `worst`'s order (higher is worse).
    private static func rank(_ code: Int32) -> Int {
        switch code {
        case 0: 0
        case 4: 1
        case 3: 2
        case 1: 3
        case 2: 4
        default: 5
        }
    }

    /// The invocation's exit code: the worst pipeline's, or the signal's when a stop left pipelines not started.
    package var exitCode: Int32 {
        Self.worst(outcomes.map(\.exitCode) + (notStarted.isEmpty ? [] : signalCode.map { [$0] } ?? []))
    }

    /// The units' counts added up, every pipeline's.
    private func sum(_ count: (RunSummary) -> Int) -> Int {
        outcomes.reduce(0) { total, outcome in total + outcome.summaries.reduce(0) { $0 + count($1) } }
    }

    /// How many pipelines ended so.
    private func count(_ kind: PipelineOutcome.Kind) -> Int {
        outcomes.filter { $0.kind == kind }.count
    }

    /// `mlsfeed: 3 pipelines: 2 succeeded, 1 failed (b: exit 4, source busy (...)); read 400, rejected 8, ...; 2.31 s`.
    package var text: String {
        var parts: [String] = []
        if count(.succeeded) > 0 { parts.append("\(count(.succeeded)) succeeded") }
        let failed = outcomes.filter { $0.kind == .failed }
        if !failed.isEmpty {
            let reasons = failed.map { "\($0.pipeline): exit \($0.exitCode)" + ($0.error.map { ", \($0)" } ?? "") }
            parts.append("\(failed.count) failed (\(reasons.joined(separator: "; ")))")
        }
        if count(.interrupted) > 0 { parts.append("\(count(.interrupted)) interrupted") }
        if !notStarted.isEmpty {
            parts.append("\(notStarted.count) not started (\(notStarted.joined(separator: ", ")))")
        }
        let total = outcomes.count + notStarted.count
        return "mlsfeed: \(total) pipeline\(total == 1 ? "" : "s"): \(parts.joined(separator: ", ")); "
            + "read \(sum(\.read)), rejected \(sum(\.rejected)), duplicates \(sum(\.duplicates)); "
            + "inserted \(sum(\.load.inserted)), updated \(sum(\.load.updated)), unchanged \(sum(\.load.unchanged)), "
            + "stale \(sum(\.load.stale)), withdrawn \(sum(\.load.withdrawn)); "
            + String(format: "%.2f s", seconds) + "\n"
    }

    /// The total as one JSON object (`log_format: json`): the pipelines by how they ended, the exit code, the counts
    /// added up, and each failed pipeline's exit code and error.
    package var json: String {
        let failures = outcomes.filter { $0.kind == .failed }.map { outcome in
            "{\"pipeline\":\(JSONText.string(outcome.pipeline)),\"source\":\(JSONText.string(outcome.source)),"
                + "\"exit_code\":\(outcome.exitCode),\"error\":\(outcome.error.map(JSONText.string) ?? "null")}"
        }
        let members: [(String, String)] = [
            ("pipelines", String(outcomes.count + notStarted.count)),
            ("succeeded", String(count(.succeeded))),
            ("failed", String(count(.failed))),
            ("interrupted", String(count(.interrupted))),
            ("not_started", "[" + notStarted.map(JSONText.string).joined(separator: ",") + "]"),
            ("exit_code", String(exitCode)),
            ("read", String(sum(\.read))),
            ("rejected", String(sum(\.rejected))),
            ("duplicates", String(sum(\.duplicates))),
            ("inserted", String(sum(\.load.inserted))),
            ("updated", String(sum(\.load.updated))),
            ("unchanged", String(sum(\.load.unchanged))),
            ("stale", String(sum(\.load.stale))),
            ("withdrawn", String(sum(\.load.withdrawn))),
            ("seconds", String(format: "%.3f", seconds)),
            ("failures", "[" + failures.joined(separator: ",") + "]"),
        ]
        return "{" + members.map { "\(JSONText.string($0.0)):\($0.1)" }.joined(separator: ",") + "}\n"
    }
}
