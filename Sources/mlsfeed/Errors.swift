import EmbeddedPostgres
import Foundation
import MLSFeed
import Postgres
import YAMLConfig

/// Commands' usage texts, shown by `--help` and after a usage error.
let commandUsage: [String: String] = [
    "run": """
        usage: mlsfeed run PIPELINE [options]

          PIPELINE              a pipeline file (pipelines/sample.yaml) or a name in pipelines/ (sample)
          --input PATH          a file, glob, directory or - (stdin); overrides the pipeline's source.input
          --database URL        PostgreSQL URL or conninfo (else $MLSFEED_DATABASE_URL, PG* variables,
                                config.yaml, or the embedded cluster)
          --mode full|incremental
                                override the pipeline's load mode
          --force               let a full dump withdraw listings even below the withdraw guard
          --dry-run             run every stage but write nothing to the database
          --output FILE.jsonl   with --dry-run: write listings, agents and rejects as JSON lines (- for stdout)
          --summary-json PATH   write the run summary as JSON
          --metrics-file PATH   write Prometheus metrics for node_exporter's textfile collector after the runs
                                ({pipeline} in PATH becomes the pipeline's name; default: metrics_file: in
                                config.yaml)
          --progress / --no-progress
                                progress line on stderr (default: on when stderr is a terminal)
          --quiet               print no summary (errors still go to stderr)
        """,
    "sweep": """
        usage: mlsfeed sweep PIPELINE [--force] [--database URL] [--summary-json PATH] [--quiet]

          A key sweep of a replicated RESO Web API resource (source.http.replication): fetches only the keys of the
          server's records ($select of the key and the replication field, paged, $count=true) and withdraws the
          source's on-market listings the server no longer has, under the full-dump rules: only when every page
          arrived and the count agrees, not below load.withdraw_guard (--force withdraws anyway), recorded in the
          ledger with mode sweep. replication.key_sweep.every makes `mlsfeed run` sweep too when the last sweep is
          older. Exit 0 swept, 3 refused (an incomplete key list, the withdraw guard), 1 or 4 the sweep failed.
        """,
    "validate": """
        usage: mlsfeed validate PIPELINE [--input PATH]

          Checks the pipeline file (and its mapping); with --input (or the pipeline's source.input), also parses,
          normalizes and validates the feed and reports rejects, without touching the database.
          Exit 0 when everything is valid, 1 when the feed has rejects or errors, 2 for configuration errors.
        """,
    "db": """
        usage: mlsfeed db start|stop|status|url|migrate [--database URL]

          start     create (first time) and start the embedded PostgreSQL under the data directory
          stop      stop it
          status    say whether it is running
          url       print its connection string
          migrate   apply schema migrations to the configured (or embedded) database
        """,
    "runs": """
        usage: mlsfeed runs [--pipeline NAME] [--limit N] [--format table|json] [--database URL]
               mlsfeed runs show ID [--format table|json] [--database URL]

          Lists the most recent runs from the run ledger (ingest_runs), newest first (20 unless --limit).
          show ID prints one run in full: inputs, counts, stage timings, warnings, error, completeness, as-of
          time and first rejects. Reads only: never migrates (a schema older than this mlsfeed is an error).
        """,
    "history": """
        usage: mlsfeed history LISTING_ID [--source S] [--format table|json] [--database URL]

          A listing as it stands and its price and status changes, withdrawals and returns, oldest first, with
          the runs that made them (of every source that has the MLS number, unless --source).
        """,
    "plan": """
        usage: mlsfeed plan PIPELINE [--input PATH] [--mode full|incremental] [--force] [--format table|json]
                            [--database URL]

          Runs every stage against the database in one transaction and rolls it back: prints what the run would
          do (inserted, updated, unchanged, stale and withdrawn listings with up to 10 MLS numbers each, agents,
          the price and status changes), or that the withdraw guard, the completeness rule or max_reject_ratio
          would stop it, and why. Writes nothing: no ledger row, no listing, history or replication row (a Web
          API's requests still count against its request budget). An input unchanged since the last run is
          reported as skipped, as the run would skip it (--force plans the load anyway, as `run --force` loads).
          Exit 0 the run would load (or skip), 3 a safety rule would stop it, 1 or 4 the plan itself failed.
        """,
    "rejects": """
        usage: mlsfeed rejects [--run ID | --last [--pipeline NAME]] [--reason TEXT] [--format table|jsonl]
                               [--database URL]
               mlsfeed rejects replay --run ID [--pipeline PATH] [--database URL]

          The rejected records of a run, in feed order: position, reasons and raw fields. Without --run, the
          last succeeded run (of --pipeline NAME); a failed run keeps no rejects (they roll back with its data).
          --reason keeps the rejects with a reason containing TEXT (ignoring case). jsonl prints one JSON object a
          line; raw is [[key, value], ...] for a flat record, the record's JSON object for a nested one.
          replay feeds the raw records of run ID's rejects through the pipeline's current mapping (--pipeline, else
          the run's pipeline in pipelines/) as a new incremental run; the rejects stay, marked replayed by it, and
          a record still failing is rejected again in the new run. A run already replayed is refused (exit 3).
        """,
    "prune": """
        usage: mlsfeed prune [--runs-older-than AGE] [--rejects-older-than AGE] [--dry-run] [--database URL]

          Deletes ledger rows (ingest_runs) and rejects of runs that started longer ago than AGE (180d, 12h, 2w;
          units s m h d w), 10,000 rows per statement. Never touches listings, agents or listing_history (a
          change keeps the id of its pruned run). Always kept: each pipeline's last run and last success, and
          each source's last succeeded run and newest (reconciled) dump, which the next run compares against.
          Rejects go with their run too. --dry-run counts what would be deleted.
        """,
    "doctor": """
        usage: mlsfeed doctor [PIPELINE [--input PATH]] [--database URL]

          Checks what a run needs, one line each with ok, warn, fail or skip and a fix: the config, the pipeline
          and its mapping, its input, the embedded PostgreSQL (when no database is configured), the database, its
          schema version and extensions (cube, earthdistance), and the free disk under the data directory.
          Reads only: creates, starts and migrates nothing. Exit 0 when every check is ok, else 1.
        """,
    "fixtures": """
        usage: mlsfeed fixtures generate --format triples|rets-compact|xml|reso-json|syndication
                                         --shape header|per-record --listings N --seed S --out PATH
                                         [--delta-of PATH --changed 2% --new 0.5% --gone 0.5%] [--dirt none|default]
                                         [--page-size N | --jsonl]

          Writes a deterministic synthetic feed and its truth (PATH without .xml/.json/.jsonl, plus .truth.json).
          reso-json: RESO Web API Property records with $expand=ListAgent,Media; by default one OData page
          document {"@odata.context", "@odata.count", "value": [...]} at PATH; with --page-size N, PATH is a
          directory and gets pages page-0001.json, page-0002.json, ... of N records, each but the last naming the
          next in "@odata.nextLink" (relative to the page itself); with --jsonl, one record per line at PATH.
          syndication: RETS Syndication 2012-03 <Listings>/<Listing>, indented.
          A delta (--delta-of) keeps its base's format and layout.
        """,
    "mapping": """
        usage: mlsfeed mapping init --from-metadata FILE [--resource Property|Member] [--class CLASS]
                                    [--lookups FILE] [--out PATH [--force]]

          Writes a starter mapping from metadata: a RESO Web API $metadata document (EDMX), or a RETS
          METADATA-TABLE reply (COMPACT or STANDARD-XML, with its METADATA-LOOKUP_TYPE in the same file or in
          --lookups FILE). Fields whose standard names match a column are placed with their types, lookups become
          enum values, and every other field is listed in a comment as going to extra.
          --resource            the resource to map (default Property); Member (RETS Agent) makes an agent mapping
          --class CLASS         the RETS class (RES, ...), needed when the table has several
          --out PATH            write the mapping to PATH (default: standard output); an existing file is kept
                                unless --force
        """,
    "search": """
        usage: mlsfeed search mls MLS_NUMBER [--source ID] [--include-withdrawn]
               mlsfeed search quick --street-number N --street-name PREFIX [--area TEXT] [--status S] [--limit N]
               mlsfeed search detailed [--type T] [--status S] [--city C] [--zip ZIP] [--min-price P] [--max-price P]
                                       [--beds N] [--baths N] [--min-sqft N] [--listed-since YYYY-MM-DD]
                                       [--sort price|-price|newest|beds] [--limit N] [--after CURSOR]
               mlsfeed search near --lat LAT --lon LON --miles M [--type ... --listed-since as detailed] [--limit N]
               mlsfeed search agent --name PREFIX [--office ID] [--limit N]

          Calls the SQL search API (schema `search`) of the database; read-only (it never migrates).
          --beds N, --baths N   at least N (baths: full + half/2)
          --zip ZIP             a 5-digit ZIP (ZIP+4 codes match their ZIP)
          --sort                price (lowest first, default), -price, newest (latest list date), beds (most)
          --after CURSOR        the next page: the cursor `search detailed` prints after a full page
          --limit N             1-1000 rows (default 20)
          --include-withdrawn   withdrawn and off-market listings too (also with --status Withdrawn)
          --mortgage down=20%,rate=6.5,years=30
                                add the monthly principal and interest of each listing (monthly_payment)
          --format table|json|csv
                                table (default; fitted to a terminal), JSON array or CSV with a header
          --database URL        as `mlsfeed run` (else $MLSFEED_DATABASE_URL, PG* variables, config.yaml, or the
                                embedded cluster)
        """,
    "bench-parse": """
        usage: mlsfeed bench-parse FILE [--format triples|rets-compact|xml|json] [--record NAME] [--strings]
               mlsfeed bench-parse FILE --pipeline PIPELINE

          Parses FILE with the parse stage alone and prints records, seconds and MB/s.
          --pipeline reads FILE as that pipeline's run would (its format, record path and mapping's paths).
          --format json runs the JSON parser alone (OData pages, arrays or JSON Lines) and counts events;
          --strings makes a String of every key, string and number (to compare with borrowed bytes).
        """,
]

/// The text printed for an error: compiler-style where the error has a position, never a password.
func describe(_ error: Error) -> String {
    let text: String
    switch error {
    case let error as ConfigError: text = error.description
    case let error as InputError: text = error.description
    case let error as PostgresError: text = "error: database: \(error.description)"
    case let error as LocalClusterError: text = "error: embedded PostgreSQL: \(error.message)"
    case let error as LoadError: text = "error: \(error.message)"
    case let error as CustomStringConvertible: text = error.description
    default: text = "error: \(error)"
    }
    return Redactor.scrub(text)
}

/// The exit code of an error that stopped a command before or outside a run: 2 for configuration and usage
/// mistakes, otherwise the code of the kind of failure it is (see `exitCode(for:signal:)`).
func exitCode(for error: Error) -> Int32 {
    switch error {
    case is ConfigError, is UsageError: return 2
    default: return exitCode(for: RunSummary.Failure(of: error), signal: nil)
    }
}

/// The exit-code table schedulers rely on: 1 the run failed (bad input), 3 a safety rule refused it, 4 the database
/// or network is unavailable (worth a retry), 130 or 143 interrupted by SIGINT or SIGTERM.
func exitCode(for failure: RunSummary.Failure, signal: Int32?) -> Int32 {
    switch failure {
    case .input: return 1
    case .refused: return 3
    case .unavailable: return 4
    case .interrupted: return signal == SIGTERM ? 143 : 130
    }
}
