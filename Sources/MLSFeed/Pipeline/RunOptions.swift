import Postgres

/// How one `mlsfeed run` (or `validate`) is carried out, beyond the pipeline file.
public struct RunOptions: Sendable {
    /// Overrides `source.input`: a path, glob, directory or `-`.
    public var input: String?
    /// libpq conninfo of the database; ignored in a dry run.
    public var conninfo: String = ""
    /// Parse, normalize, validate and dedupe, but write nothing to the database.
    public var dryRun = false
    /// In a dry run, write the normalized listings, agents and rejects as JSON lines here (`-` for stdout).
    public var output: String?
    /// Overrides the pipeline's load mode.
    public var mode: LoadMode?
    /// Plan the run (`LoadOptions.plan`): every stage runs against the database and the load is rolled back; the
    /// summary's `load.plan` says what it would do. A plan has no run id.
    package var plan = false
    /// Lets a full dump (or a key sweep) withdraw listings even below the withdraw guard.
    public var force = false
    /// A key sweep of the pipeline's replicated resource (see `PipelineRunner.sweep`).
    package var sweep = false
    /// How many rejects the summary quotes.
    package var sampleRejects = 10
    /// Timeouts of the run's database connections.
    package var database = ConnectionOptions()
    /// Told what the run does as it happens (`RunEvent`): started, inputs and pages, retries, lock waits, stages,
    /// warnings, finished. Every text is redacted.
    package var events: (@Sendable (RunEvent) -> Void)?

    public init() {}
}
