/// What one load is: which pipeline and source, the mode, and the rules that guard a full dump's withdrawals.
package struct LoadOptions: Sendable, Hashable {
    package var source: String
    package var pipeline: String
    package var mode: LoadMode
    /// A full dump holding fewer than this share of the source's active listings fails unless `force`.
    package var withdrawGuard: Double
    package var force: Bool
    /// What a full run does when the dump is incomplete (`force` does not override it).
    package var onIncomplete: IncompletePolicy
    /// A plan (`mlsfeed plan`): the run does everything in its transaction, reads what it did into
    /// `LoadResult.plan` and rolls it all back. It records no ledger row, migrates nothing, drops no index (a
    /// first load merges through staging) and its run id is 0.
    package var plan: Bool
    /// A run into a source that has listings merges its changed and new listings while the parse goes on, each
    /// time this many more have been staged (`MergeStatements.earlyMerge`); 0: only at the end.
    package var earlyMergeRows: Int
    /// Where the run spools its recognised listings' keys (`RecognisedKeySpool`); nil: `SpoolDirectory.defaultPath`.
    package var spoolDirectory: String?
    /// Seconds a run waits for its source's lock while another run of the source holds it (`load.lock_timeout`);
    /// 0: it does not wait.
    package var lockTimeout: Double

    /// A key sweep (`mode` full): the records are the server's keys only, sent into `seen_listings` as they come;
    /// nothing is upserted, and the source's on-market listings the keys lack are withdrawn by the full-dump rules.
    /// Its ledger row's mode is `sweep`.
    package var sweep = false

    /// The pipeline's entity (`Mapping.entity`): what its records are, and the merge they take.
    package var entity: Entity = .listing
    /// The kinds of row its listings embed (`Mapping.embedded`): agents, offices, media, open houses.
    package var embedded: Set<Entity> = []
    /// The tables besides `listings` and `agents` the run stages rows of (made at its start).
    var stagedEntities: [Entity] {
        [Entity.office, .openHouse, .media].filter { $0 == entity || embedded.contains($0) }
    }
    /// Whether the run's listings carry rows of their own (media, open houses).
    var ownsChildren: Bool {
        entity == .listing && embedded.contains { $0.belongsToListing }
    }
    /// The mode the ledger records: `incremental`, `full` or `sweep`.
    package var recordedMode: String { sweep ? "sweep" : mode.rawValue }

    /// The staged listings between two merges during the parse, unless a pipeline says otherwise.
    package static let defaultEarlyMergeRows = 1_000
    /// `lockTimeout` unless a pipeline says otherwise.
    package static let defaultLockTimeout = 300.0

    package init(source: String, pipeline: String, mode: LoadMode, withdrawGuard: Double = 0.5, force: Bool = false,
                onIncomplete: IncompletePolicy = .fail, plan: Bool = false,
                earlyMergeRows: Int = LoadOptions.defaultEarlyMergeRows, spoolDirectory: String? = nil,
                lockTimeout: Double = LoadOptions.defaultLockTimeout) {
        self.source = source
        self.pipeline = pipeline
        self.mode = mode
        self.withdrawGuard = withdrawGuard
        self.force = force
        self.onIncomplete = onIncomplete
        self.plan = plan
        self.earlyMergeRows = earlyMergeRows
        self.spoolDirectory = spoolDirectory
        self.lockTimeout = lockTimeout
    }
}
