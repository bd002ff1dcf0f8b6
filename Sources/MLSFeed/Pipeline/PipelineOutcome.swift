/// How one pipeline of a several-pipeline `mlsfeed run` ended: the summaries of its units, in order (a failure
/// before or between its units, which no unit's summary tells, as a summary of its own: `RunSummary.outside`), and
/// the exit code a run of it alone would have had.
package struct PipelineOutcome: Sendable {
    /// How a pipeline ended, as the total line counts it.
    package enum Kind: String, Sendable {
        /// Exit 0: every unit succeeded, was unchanged or paused.
        case succeeded
        /// Exit 1 to 4.
        case failed
        /// Stopped by a signal: exit 130 or 143.
        case interrupted
    }

    package var pipeline: String
    package var source: String
    package var summaries: [RunSummary]
    package var exitCode: Int32

    package init(pipeline: String, source: String, summaries: [RunSummary], exitCode: Int32) {
        self.pipeline = pipeline
        self.source = source
        self.summaries = summaries
        self.exitCode = exitCode
    }

    /// Succeeded, failed or interrupted, by the exit code.
    package var kind: Kind {
        switch exitCode {
        case 0: .succeeded
        case 130, 143: .interrupted
        default: .failed
        }
    }

    /// The first line of the error of the last unit that failed, without its `error: `; nil when none did.
    package var error: String? {
        guard let text = summaries.last(where: { $0.status == .failed || $0.status == .interrupted })?.error else {
            return nil
        }
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? text
        return line.hasPrefix("error: ") ? String(line.dropFirst("error: ".count)) : line
    }
}
