extension CommandHelp {
    /// Every command, in the order `mlsfeed --help` and the man page list them.
    static let all: [CommandHelp] = [
        run, validate, sweep, plan, db, runs, history, rejects, prune, doctor, search, fixtures, mapping,
        benchParse, completion, man,
    ]

    /// The options every command but the generators takes.
    static let config = Option("config", .path("PATH"), "project config (default: ./config.yaml, or $MLSFEED_CONFIG)")
    static let database = Option("database", .text("URL"),
                                 "PostgreSQL URL or conninfo (else $MLSFEED_DATABASE_URL, the PG* variables, "
                                     + "config.yaml, or the embedded cluster)")
    static let pipelineArgument = Argument("PIPELINE", .pipeline("PIPELINE"),
                                           "a pipeline file (pipelines/sample.yaml) or a name in pipelines/ (sample)")
    static let interrupted: [Exit] = [Exit(.interrupted), Exit(.terminated)]
    /// Exit 2 of the commands that write: they refuse a hot standby before anything else.
    static let usageOrStandby = Exit(.usage, "usage or configuration error, or the database is a read-only hot "
                                         + "standby (point --database at the primary), found before anything ran")
    /// The exit codes of the commands that read the ledger.
    static let ledgerExits: [Exit] = [
        Exit(.success),
        Exit(.failed, "no such run or listing, or the database schema is older than this mlsfeed (`mlsfeed db "
                 + "migrate` migrates it)"),
        Exit(.usage),
        Exit(.unavailable, "the database is unreachable, or the embedded PostgreSQL is not running (`mlsfeed db "
                 + "start`)"),
    ] + interrupted

    static let run = CommandHelp(
        name: "run", heading: "run PIPELINE...",
        summary: "run pipelines: fetch, parse, normalize, validate, dedupe, load",
        usage: ["run PIPELINE... [options]"],
        arguments: [Argument("PIPELINE", .pipeline("PIPELINE"), "a pipeline file (pipelines/sample.yaml) or a name in "
                                 + "pipelines/ (sample); several run one after the other, or --jobs at a time",
                             repeats: true)],
        description: """
            Runs the pipeline: reads its input, normalizes and validates every record by its mapping, and loads \
            the listings and agents into PostgreSQL in one transaction per input (one for all of them with \
            source.unit: all). A failed or interrupted run leaves the database at its last good state; run it \
            again. Each input's run is recorded in the run ledger (`mlsfeed runs`).

            With several pipelines (pipelines/*.yaml), up to --jobs of them run at once, taken in the order given; \
            two that name one source run one after the other. Each prints its summary, then a total line; the exit \
            code is the worst of theirs (a signal's, then 2, 1, 3, 4, 0).
            """,
        options: [
            Option("jobs", .text("N"), "with several pipelines: how many run at once (default 1, at most 64)"),
            Option("input", .path("PATH"), "one pipeline only: a file, glob, directory, http(s) URL or - (stdin); "
                       + "overrides the pipeline's source.input"),
            database,
            Option("mode", .choice(["full", "incremental"]), "override the pipeline's load mode"),
            Option("force", nil, "load an input unchanged since the last run, and let a full dump withdraw "
                       + "listings below the withdraw guard"),
            Option("dry-run", nil, "run every stage but write nothing to the database"),
            Option("output", .path("FILE.jsonl"), "with --dry-run and one pipeline: write listings, agents and "
                       + "rejects as JSON lines (- for standard output)"),
            Option("summary-json", .path("PATH"), "write the run summary as JSON (on every way out); an array of "
                       + "every pipeline's units with several"),
            Option("metrics-file", .path("PATH"), "write Prometheus metrics for node_exporter's textfile "
                       + "collector after the runs ({pipeline} in PATH becomes the pipeline's name; without it, "
                       + "several pipelines share the file; default: metrics_file: in config.yaml)"),
            Option("progress", nil, "draw a progress line on standard error, one for all the pipelines running "
                       + "(default: when it is a terminal)"),
            Option("no-progress", nil, "draw no progress line"),
            Option("quiet", nil, "print no summary and no total line for what succeeded (warnings and errors still "
                       + "go to standard error)"),
            config,
        ],
        exits: [Exit(.success), Exit(.failed), usageOrStandby, Exit(.refused), Exit(.unavailable)] + interrupted)

    static let validate = CommandHelp(
        name: "validate", heading: "validate PIPELINE",
        summary: "check a pipeline file (and, with an input, its feed) without touching the database",
        usage: ["validate PIPELINE [--input PATH] [--summary-json PATH] [--quiet]"],
        arguments: [pipelineArgument],
        description: """
            Checks the pipeline file and its mapping. With --input (or the pipeline's source.input) it also \
            parses, normalizes and validates the feed and reports its rejects, without touching the database.
            """,
        options: [
            Option("input", .path("PATH"), "the feed to check (a file, glob, directory, URL or -); default: the "
                       + "pipeline's source.input"),
            Option("summary-json", .path("PATH"), "write the summary as JSON"),
            Option("quiet", nil, "print no summary (errors still go to standard error)"),
            config,
        ],
        exits: [
            Exit(.success, "the pipeline is valid, and so is every record of its feed"),
            Exit(.failed, "the feed has rejects, or cannot be read"),
            Exit(.usage),
            Exit(.unavailable, "an HTTP input is unavailable: worth a retry later"),
        ] + interrupted)

    static let sweep = CommandHelp(
        name: "sweep", heading: "sweep PIPELINE",
        summary: "withdraw the listings a replicated RESO Web API source no longer has (a key sweep)",
        usage: ["sweep PIPELINE [--force] [--database URL] [--summary-json PATH] [--quiet]"],
        arguments: [pipelineArgument],
        description: """
            A key sweep of a replicated RESO Web API resource (source.http.replication): fetches only the keys of \
            the server's records ($select of the key and the replication field, paged, $count=true) and withdraws \
            the source's on-market listings the server no longer has, under the full-dump rules: only when every \
            page arrived and the count agrees, and not below load.withdraw_guard. The sweep is recorded in the run \
            ledger with mode sweep. With replication.key_sweep.every set, `mlsfeed run` also sweeps when the last \
            sweep is older than that.
            """,
        options: [
            Option("force", nil, "withdraw even below load.withdraw_guard (an incomplete key list is always "
                       + "refused)"),
            database,
            Option("summary-json", .path("PATH"), "write the sweep's summary as JSON (on every way out)"),
            Option("quiet", nil, "print no summary (warnings and errors still go to standard error)"),
            config,
        ],
        exits: [
            Exit(.success, "the sweep withdrew what the server no longer has (or nothing)"),
            Exit(.failed, "the sweep failed on what the server sent"),
            Exit(.usage),
            Exit(.refused, "an incomplete key list, or the withdraw guard, refused the withdrawals"),
            Exit(.unavailable),
        ] + interrupted)

    static let plan = CommandHelp(
        name: "plan", heading: "plan PIPELINE",
        summary: "what a run would do (counts, examples, changes, safety rules); writes nothing",
        usage: ["plan PIPELINE [--input PATH] [--mode full|incremental] [--force] [--format table|json] "
                    + "[--database URL]"],
        arguments: [pipelineArgument],
        description: """
            Runs every stage against the database in one transaction and rolls it back, then prints what the run \
            would do: the listings it would insert, update, leave unchanged, find stale and withdraw, with up to 10 \
            MLS numbers of each, the agents, and the price and status changes it would record; or which safety rule \
            (withdraw_guard, completeness, max_reject_ratio) would stop it, and why.

            Nothing is written: no ledger row, no listing, agent, history or replication row (a RESO Web API's \
            requests still count against its request budget). An input unchanged since the source's last \
            successful run is reported as skipped, as the run would skip it; --force plans a load of it anyway. \
            Like run, it needs the primary: a hot standby takes no temporary table.
            """,
        options: [
            Option("input", .path("PATH"), "a file, glob, directory, URL or -; overrides the pipeline's "
                       + "source.input"),
            Option("mode", .choice(["full", "incremental"]), "override the pipeline's load mode"),
            Option("force", nil, "plan as `run --force` would run: an unchanged input too, and past the withdraw "
                       + "guard"),
            Option("format", .choice(["table", "json"]), "table (default), or one JSON object per unit"),
            database,
            config,
        ],
        exits: [
            Exit(.success, "the run would load the input, or skip it as unchanged"),
            Exit(.failed, "the plan itself failed on its input"),
            usageOrStandby,
            Exit(.refused, "a safety rule would stop the run (the plan says which)"),
            Exit(.unavailable),
        ] + interrupted)

    static let db = CommandHelp(
        name: "db", heading: "db start|stop|status|url|migrate",
        summary: "manage the embedded PostgreSQL, or migrate the configured database",
        usage: ["db start|stop|status|url|migrate [--database URL]"],
        variants: ["start", "stop", "status", "url", "migrate"], variantRequired: true,
        description: """
            start creates (the first time) and starts the embedded PostgreSQL under the data directory; stop \
            stops it; status says whether it runs; url prints the connection string of the configured database, \
            else of the embedded cluster (for psql); migrate applies the schema migrations to the configured (or \
            embedded) database. status and url only read: they create, start and migrate nothing.
            """,
        options: [database, config],
        exits: [
            Exit(.success),
            Exit(.failed, "status: the embedded PostgreSQL is not running; start: it could not be created or "
                     + "started"),
            Exit(.usage, "usage or configuration error, or migrate: the database is a read-only hot standby "
                     + "(point --database at the primary), found before anything ran"),
            Exit(.unavailable, "migrate: the database is unreachable"),
        ] + interrupted)

    static let runs = CommandHelp(
        name: "runs", heading: "runs [show ID]",
        summary: "list recent runs from the run ledger, or show one in full",
        usage: ["runs [--name NAME] [--limit N] [--format table|json] [--database URL]",
                "runs show ID [--format table|json] [--database URL]"],
        variants: ["show"],
        arguments: [Argument("ID", .text("ID"), "show: the run's id in the ledger")],
        description: """
            Lists the most recent runs of the run ledger (ingest_runs), newest first. show ID prints one run in \
            full: its inputs, counts, completeness, as-of time, stage timings, warnings, error and first rejects. \
            Reads only: never migrates, never starts the embedded PostgreSQL; works on a hot standby.
            """,
        options: [
            Option("name", .text("NAME"), "only the runs of the pipeline called NAME in the ledger"),
            Option("limit", .text("N"), "how many runs (default 20)"),
            Option("format", .choice(["table", "json"]), "a table (default, local times) or JSON (UTC times)"),
            database,
            config,
        ],
        exits: ledgerExits,
        renamed: ["pipeline": "name"])

    static let history = CommandHelp(
        name: "history", heading: "history LISTING_ID",
        summary: "a listing's price and status changes, withdrawals and returns",
        usage: ["history LISTING_ID [--source S] [--format table|json] [--database URL]"],
        arguments: [Argument("LISTING_ID", .text("LISTING_ID"), "the listing's MLS number")],
        description: """
            Shows a listing as it stands and its price and status changes, withdrawals and returns, oldest \
            first, with the runs that made them (of every source that has the MLS number, unless --source). \
            Reads only.
            """,
        options: [
            Option("source", .text("S"), "only the listing of this source (source.id)"),
            Option("format", .choice(["table", "json"]), "a table (default, local times) or JSON (UTC times)"),
            database,
            config,
        ],
        exits: ledgerExits)

    static let rejects = CommandHelp(
        name: "rejects", heading: "rejects [replay]",
        summary: "the rejected records of a run, with reasons and raw fields; replay them",
        usage: ["rejects [--run ID | --last [--name NAME]] [--reason TEXT] [--format table|jsonl] [--database URL]",
                "rejects replay --run ID [--pipeline PATH] [--database URL]"],
        variants: ["replay"],
        description: """
            Lists the rejected records of a run in feed order: position, reasons and raw fields. Without --run, \
            those of the last succeeded run (of the pipeline called --name); a failed run keeps no rejects, they \
            roll back with its data. jsonl prints one JSON object a line; raw is [[key, value], ...] for a flat \
            record and the record's JSON object for a nested one. Reads only.

            replay feeds the stored raw records of run ID's rejects through the pipeline's current mapping (the \
            --pipeline file, else the run's own pipeline in pipelines/) as a new incremental run. The rejects \
            stay, marked replayed by the new run; a record still failing is rejected again in it. Like run, \
            replay migrates the database.
            """,
        options: [
            Option("run", .text("ID"), "the run whose rejects to list, or to replay"),
            Option("last", nil, "the last succeeded run (the default)", only: [""]),
            Option("name", .text("NAME"), "with --last: the last succeeded run of the pipeline called NAME in the "
                       + "ledger", only: [""]),
            Option("reason", .text("TEXT"), "only the rejects with a reason containing TEXT (ignoring case)",
                   only: [""]),
            Option("format", .choice(["table", "jsonl"]), "a table (default) or JSON lines", only: [""]),
            Option("pipeline", .pipeline("PATH"), "replay: the pipeline file whose mapping to use (default: "
                       + "pipelines/NAME.yaml of the run's pipeline)", only: ["replay"]),
            database,
            config,
        ],
        exits: [
            Exit(.success),
            Exit(.failed, "no such run, or the database schema is older than this mlsfeed; replay: as for run"),
            Exit(.usage, "usage or configuration error, or replay: the database is a read-only hot standby "
                     + "(point --database at the primary), found before anything ran"),
            Exit(.refused, "replay: the run's rejects were all replayed already"),
            Exit(.unavailable, "the database is unreachable, or the embedded PostgreSQL is not running"),
        ] + interrupted,
        renamed: ["pipeline": "name"])

    static let prune = CommandHelp(
        name: "prune", heading: "prune",
        summary: "delete old ledger rows and rejects",
        usage: ["prune [--runs-older-than AGE] [--rejects-older-than AGE] [--dry-run] [--database URL]"],
        description: """
            Deletes ledger rows (ingest_runs) and rejects of runs that started longer ago than AGE (180d, 12h, \
            2w; units s m h d w), 10,000 rows per statement, each in its own transaction. Never touches listings, \
            agents or listing_history (a change keeps the id of its pruned run). Always kept: each pipeline's \
            and source's last run and last success, and each source's last succeeded run and newest (reconciled) \
            dump, which the next run compares against. Rejects go with their run too.
            """,
        options: [
            Option("runs-older-than", .text("AGE"), "delete the runs (and their rejects) older than AGE"),
            Option("rejects-older-than", .text("AGE"), "delete the rejects of runs older than AGE"),
            Option("dry-run", nil, "count what would be deleted; delete nothing"),
            database,
            config,
        ],
        exits: [
            Exit(.success),
            Exit(.failed, "the database schema is older than this mlsfeed"),
            Exit(.usage, "usage or configuration error, or the database is a read-only hot standby (a dry run "
                     + "works there), found before anything ran"),
            Exit(.unavailable, "the database is unreachable, or the embedded PostgreSQL is not running"),
        ] + interrupted)

    static let doctor = CommandHelp(
        name: "doctor", heading: "doctor [PIPELINE]",
        summary: "check the config, pipeline, input, database, schema, extensions and disk",
        usage: ["doctor [PIPELINE [--input PATH]] [--database URL]"],
        arguments: [pipelineArgument],
        description: """
            Checks what a run needs, one line each with ok, warn, fail or skip and a fix: the config, the \
            pipeline and its mapping, its input, the embedded PostgreSQL (when no database is configured), the \
            database, its schema version and extensions (cube, earthdistance), and the free disk under the data \
            directory. Reads only: creates, starts and migrates nothing. A hot standby passes the database check, \
            unless a PIPELINE is named: a run needs the primary.
            """,
        options: [
            Option("input", .path("PATH"), "the input to check instead of the pipeline's source.input"),
            database,
            config,
        ],
        exits: [Exit(.success, "every check is ok"), Exit(.failed, "a check warned or failed"), Exit(.usage)]
            + interrupted)

    static let search = CommandHelp(
        name: "search", heading: "search mls|quick|detailed|near|agent",
        summary: "search listings and agents (the SQL search API)",
        usage: [
            "search mls MLS_NUMBER [--source ID] [--include-withdrawn] [--mortgage SPEC]",
            "search quick --street-number N --street-name PREFIX [--area TEXT] [--status S] [--limit N]",
            "search detailed [--type T] [--status S] [--city C] [--zip ZIP] [--min-price P] [--max-price P] "
                + "[--beds N] [--baths N] [--min-sqft N] [--listed-since DATE] [--sort ORDER] [--limit N] "
                + "[--after CURSOR]",
            "search near --lat LAT --lon LON --miles M [--type ... --listed-since as detailed] [--limit N]",
            "search agent --name PREFIX [--office ID] [--limit N]",
        ],
        variants: ["mls", "quick", "detailed", "near", "agent"], variantRequired: true,
        arguments: [Argument("MLS_NUMBER", .text("MLS_NUMBER"), "mls: the listing's MLS number")],
        description: """
            Calls the SQL search API (schema search) of the database and prints what it returns. Read-only: it \
            never migrates. Every search takes --format and --database, and every listing search \
            --include-withdrawn and --mortgage. A full page of search detailed ends with `next page: --after \
            CURSOR` on standard error. It works on a hot standby as on its primary.
            """,
        options: [
            Option("source", .text("ID"), "mls: only the listing of this source", only: ["mls"]),
            Option("street-number", .text("N"), "quick: the street number", only: ["quick"]),
            Option("street-name", .text("PREFIX"), "quick: the start of the street's name", only: ["quick"]),
            Option("area", .text("TEXT"), "quick: an MLS area containing TEXT", only: ["quick"]),
            Option("status", .text("S"), "a standard status (Active, Pending, ...)",
                   only: ["quick", "detailed", "near"]),
            Option("type", .text("T"), "a property type (Residential, ...)", only: ["detailed", "near"]),
            Option("city", .text("C"), "detailed: the city", only: ["detailed"]),
            Option("zip", .text("ZIP"), "detailed: a 5-digit ZIP (ZIP+4 codes match their ZIP)", only: ["detailed"]),
            Option("min-price", .text("P"), "the lowest list price", only: ["detailed", "near"]),
            Option("max-price", .text("P"), "the highest list price", only: ["detailed", "near"]),
            Option("beds", .text("N"), "at least N bedrooms", only: ["detailed", "near"]),
            Option("baths", .text("N"), "at least N bathrooms (full + half/2)", only: ["detailed", "near"]),
            Option("min-sqft", .text("N"), "at least N square feet of living area", only: ["detailed", "near"]),
            Option("listed-since", .text("DATE"), "listed on or after DATE (YYYY-MM-DD)", only: ["detailed", "near"]),
            Option("sort", .choice(["price", "-price", "newest", "beds"]), "detailed: price (lowest first, "
                       + "default), -price, newest (latest list date), beds (most)", only: ["detailed"]),
            Option("after", .text("CURSOR"), "detailed: the next page, after the cursor a full page printed",
                   only: ["detailed"]),
            Option("lat", .text("LAT"), "near: the latitude of the center", only: ["near"]),
            Option("lon", .text("LON"), "near: the longitude of the center", only: ["near"]),
            Option("miles", .text("M"), "near: the radius in miles", only: ["near"]),
            Option("name", .text("PREFIX"), "agent: the start of the agent's first, last or full name",
                   only: ["agent"]),
            Option("office", .text("ID"), "agent: the office's MLS id", only: ["agent"]),
            Option("limit", .text("N"), "1-1000 rows (default 20)", only: ["quick", "detailed", "near", "agent"]),
            Option("include-withdrawn", nil, "withdrawn and off-market listings too (also with --status "
                       + "Withdrawn)", only: ["mls", "quick", "detailed", "near"]),
            Option("mortgage", .text("SPEC"), "add each listing's monthly principal and interest, e.g. "
                       + "down=20%,rate=6.5,years=30", only: ["mls", "quick", "detailed", "near"]),
            Option("format", .choice(["table", "json", "csv"]), "a table (default; fitted to a terminal), a JSON "
                       + "array, or CSV with a header"),
            database,
            config,
        ],
        exits: [
            Exit(.success, "success, also when nothing matched"),
            Exit(.failed, "the database schema is older than this mlsfeed"),
            Exit(.usage),
            Exit(.unavailable, "the database is unreachable"),
        ] + interrupted)

    static let fixtures = CommandHelp(
        name: "fixtures", heading: "fixtures generate",
        summary: "write a deterministic synthetic feed and its truth file",
        usage: ["fixtures generate --listings N --output PATH [--format FORMAT] [--shape header|per-record] "
                    + "[--seed S] [--dirt none|default] [--source ID] [--page-size N | --jsonl]",
                "fixtures generate --delta-of PATH --output PATH [--seed S] [--changed 2%] [--new 0.5%] "
                    + "[--gone 0.5%]"],
        variants: ["generate"], variantRequired: true,
        description: """
            Writes a deterministic synthetic feed and its truth (PATH without .xml, .json or .jsonl, plus \
            .truth.json). reso-json writes RESO Web API Property records with $expand=ListAgent,Media: by default \
            one OData page document at PATH; with --page-size N, PATH is a directory of pages page-0001.json, ... \
            of N records, each but the last naming the next in @odata.nextLink; with --jsonl, one record a line. \
            syndication writes RETS Syndication <Listings>/<Listing>. A delta (--delta-of) is the next night's \
            dump of its base and keeps the base's format and layout.
            """,
        options: [
            Option("listings", .text("N"), "listings in the market"),
            Option("output", .path("PATH"), "where to write the feed; its truth goes beside it"),
            Option("format", .choice(["triples", "rets-compact", "xml", "reso-json", "syndication"]),
                   "the feed's format (default triples)"),
            Option("shape", .choice(["header", "per-record"]), "triples: keys once before the records (default) or "
                       + "in every record"),
            Option("seed", .text("S"), "the market's seed (default 1); for a delta, the seed of the night's changes"),
            Option("dirt", .choice(["none", "default"]), "the share of bad records and values (default: default)"),
            Option("source", .text("ID"), "the feed's source attribute (default sdmls)"),
            Option("page-size", .text("N"), "reso-json: OData pages of N records in the directory PATH"),
            Option("jsonl", nil, "reso-json: JSON Lines, one record a line"),
            Option("delta-of", .path("PATH"), "write the next night's dump of the feed (or truth) at PATH"),
            Option("changed", .text("SHARE"), "with --delta-of: the share of listings changed (default 2%)"),
            Option("new", .text("SHARE"), "with --delta-of: the share of new listings (default 0.5%)"),
            Option("gone", .text("SHARE"), "with --delta-of: the share of listings gone (default 0.5%)"),
        ],
        exits: [Exit(.success), Exit(.failed, "the feed could not be written"), Exit(.usage)] + interrupted,
        renamed: ["out": "output"])

    static let mapping = CommandHelp(
        name: "mapping", heading: "mapping init",
        summary: "write a starter mapping from RESO $metadata or RETS METADATA",
        usage: ["mapping init --from-metadata FILE [--resource NAME] [--class CLASS] [--lookups FILE] "
                    + "[--output PATH [--force]]"],
        variants: ["init"], variantRequired: true,
        description: """
            Writes a starter mapping from metadata: a RESO Web API $metadata document (EDMX), or a RETS \
            METADATA-TABLE reply (COMPACT or STANDARD-XML, with its METADATA-LOOKUP_TYPE in the same file or in \
            --lookups FILE). Fields whose standard names match a column are placed with their types, lookups \
            become enum values, and every other field is listed in a comment as going to extra.
            """,
        options: [
            Option("from-metadata", .path("FILE"), "the EDMX document or RETS METADATA-TABLE reply"),
            Option("resource", .text("NAME"), "the resource to map (default Property); Member (RETS Agent) makes an "
                       + "agent mapping"),
            Option("class", .text("CLASS"), "the RETS class (RES, ...), needed when the table has several"),
            Option("lookups", .path("FILE"), "the RETS METADATA-LOOKUP_TYPE reply, when it is a file of its own"),
            Option("output", .path("PATH"), "write the mapping to PATH (default: standard output)"),
            Option("force", nil, "replace an existing file at --output PATH"),
        ],
        exits: [Exit(.success), Exit(.failed, "the metadata could not be read, or the mapping could not be written"),
                Exit(.usage)] + interrupted,
        renamed: ["out": "output"])

    static let benchParse = CommandHelp(
        name: "bench-parse", heading: "bench-parse FILE",
        summary: "time the parse stage alone on a feed file",
        usage: ["bench-parse FILE [--input-format triples|rets-compact|xml|reso-json] [--record NAME] [--strings]",
                "bench-parse FILE --pipeline PATH"],
        arguments: [Argument("FILE", .path("FILE"), "the feed file to parse")],
        description: """
            Parses FILE with the parse stage alone and prints records, seconds and MB/s. --pipeline reads FILE \
            as that pipeline's run would (its format, record path and the mapping's paths). --input-format \
            reso-json runs the JSON parser alone (OData pages, arrays or JSON Lines) and counts its events.
            """,
        options: [
            Option("input-format", .choice(["triples", "rets-compact", "xml", "reso-json"]), "the format of FILE "
                       + "(default triples)"),
            Option("record", .text("NAME"), "triples and xml: the record element (default listing)"),
            Option("strings", nil, "reso-json: make a String of every key, string and number"),
            Option("pipeline", .pipeline("PATH"), "read FILE as this pipeline file's run would"),
            config,
        ],
        exits: [Exit(.success), Exit(.failed, "FILE could not be read or parsed"), Exit(.usage)] + interrupted,
        renamed: ["format": "input-format"])

    static let completion = CommandHelp(
        name: "completion", heading: "completion bash|zsh",
        summary: "print the shell completion script for bash or zsh",
        usage: ["completion bash|zsh"],
        variants: ["bash", "zsh"], variantRequired: true,
        description: """
            Prints a completion script of commands, options, their values and pipeline files. bash: \
            `source <(mlsfeed completion bash)` in ~/.bashrc, or save it as \
            /usr/share/bash-completion/completions/mlsfeed. zsh: save it as _mlsfeed in a directory of $fpath.
            """,
        options: [],
        exits: [Exit(.success), Exit(.usage)] + interrupted)

    static let man = CommandHelp(
        name: "man", heading: "man",
        summary: "print the manual page mlsfeed(1), in roff",
        usage: ["man"],
        description: """
            Prints the manual page, made from the same text as --help: \
            `mlsfeed man > /usr/local/share/man/man1/mlsfeed.1` installs it (scripts/setup does, as root).
            """,
        options: [],
        exits: [Exit(.success)] + interrupted)
}
