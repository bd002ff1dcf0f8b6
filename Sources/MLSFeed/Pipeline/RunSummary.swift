import Postgres

/// The outcome of one run, as printed at the end and written by `--summary-json`.
public struct RunSummary: Sendable {
    public enum Status: String, Sendable { case succeeded, failed, interrupted, unchanged, paused }

    /// Why a run did not succeed, as a scheduler needs to tell it apart (docs/operations.md, "Exit codes").
    package enum Failure: String, Sendable {
        /// The input or the run itself is bad (a malformed file, a database error in a statement): exit 1.
        case input
        /// The database refused the configured role: a failed login, or a privilege it lacks: exit 2.
        case configuration
        /// A safety rule stopped the run with nothing changed (withdraw guard, incomplete dump, reject ratio): exit 3.
        case refused
        /// The database or the network is unavailable, or another run holds the pipeline: worth a retry, exit 4.
        case unavailable
        /// A signal stopped the run: exit 130 (SIGINT) or 143 (SIGTERM).
        case interrupted

        /// The kind of an error that ended a run.
        package init(of error: any Error) {
            switch error {
            case is RunInterrupted, is CancellationError: self = .interrupted
            case is RejectRatioExceeded: self = .refused
            case is DiskFull: self = .unavailable
            case let error as LoadError:
                switch error.kind {
                case .refusal: self = .refused
                case .busy: self = .unavailable
                case .failure: self = .input
                }
            case let error as FetchError:
                self = error.isTransient ? .unavailable : .input
            case let error as PostgresError:
                switch error.code {
                // A lock or statement timeout is a busy database too: worth a retry later.
                case .connectionFailure, .cannotConnectNow, .adminShutdown, .tooManyConnections, .lockNotAvailable,
                     .queryCanceled, .diskFull:
                    self = .unavailable
                case .invalidPassword, .invalidAuthorization, .insufficientPrivilege:
                    self = .configuration
                default: self = .input
                }
            default: self = .input
            }
        }
    }

    public var runID: Int64?
    public var pipeline: String
    public var source: String
    public var mode: String
    public var dryRun: Bool
    public var status: Status = .succeeded
    /// Set when the run failed or was interrupted.
    package var failure: Failure?
    public var read = 0
    public var rejected = 0
    public var duplicates = 0
    /// What the load did (all 0 in a dry run).
    public var load = LoadResult(runID: 0)
    public var seconds = 0.0
    package var inputs: [InputFile] = []
    /// What was read: bytes, sha256, ETag (known once the input was read to its end).
    package var identities: [InputIdentity] = []
    package var stages: [StageMetrics] = []
    public var warnings: [String] = []
    /// Bad optional values per field and rule (`list_price: 37 not a price ("call agent")`).
    package var issues: [String] = []
    /// Reject reasons per field and rule.
    package var rejectReasons: [String] = []
    /// The first rejects, compiler-style.
    package var sampleRejects: [String] = []
    /// Control characters removed from values.
    package var removedCharacters = 0
    /// Whether the dump was read whole.
    package var completeness = Completeness()
    /// The earlier run an `unchanged` run matched.
    package var matchedRun: Int64?
    public var error: String?
    /// Whether this tells a failure outside any unit (`outside`), not a unit's run.
    package var outsideAnyUnit = false

    package init(pipeline: String, source: String, mode: String, dryRun: Bool) {
        self.pipeline = pipeline
        self.source = source
        self.mode = mode
        self.dryRun = dryRun
    }

    /// A pipeline's failure before or between its units, which no unit's summary tells (another run holding the
    /// source, the database unreachable, no input): a summary of its own, with no run id and nothing read, so a
    /// several-pipeline run reports every pipeline alike.
    package static func outside(pipeline: String, source: String, mode: String, dryRun: Bool, failure: Failure,
                                error: String) -> RunSummary {
        var summary = RunSummary(pipeline: pipeline, source: source, mode: mode, dryRun: dryRun)
        summary.status = failure == .interrupted ? .interrupted : .failed
        summary.failure = failure
        summary.error = error
        summary.completeness = .unfinished
        summary.outsideAnyUnit = true
        return summary
    }
}
