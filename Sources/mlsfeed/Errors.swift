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
          --progress / --no-progress
                                progress line on stderr (default: on when stderr is a terminal)
          --quiet               print no summary (errors still go to stderr)
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
        usage: mlsfeed runs [--pipeline NAME] [--limit N] [--database URL]

          Lists the most recent runs from the run ledger (ingest_runs), newest first.
        """,
    "fixtures": """
        usage: mlsfeed fixtures generate --format triples|rets-compact|xml --shape header|per-record
                                         --listings N --seed S --out PATH
                                         [--delta-of PATH --changed 2% --new 0.5% --gone 0.5%] [--dirt none|default]
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
        usage: mlsfeed bench-parse FILE [--format triples|rets-compact|xml] [--record NAME]

          Parses FILE with the parse stage alone and prints records, seconds and MB/s.
        """,
]

/// The text printed for an error: compiler-style where the error has a position, never a password.
func describe(_ error: Error) -> String {
    let text: String
    switch error {
    case let error as ConfigError: text = error.description
    case let error as InputError: text = error.description
    case let error as PostgresError: text = "error: database: \(error.description)"
    case let error as CustomStringConvertible: text = error.description
    default: text = "error: \(error)"
    }
    return ConnectionString.redacted(text)
}

/// 2 for configuration and usage mistakes, 1 for everything else.
func exitCode(for error: Error) -> Int32 {
    switch error {
    case is ConfigError, is UsageError: return 2
    default: return 1
    }
}
