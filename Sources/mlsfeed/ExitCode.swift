/// The exit codes of `mlsfeed` and what each means: the one table that `--help`, every command's help, the man page
/// and docs/operations.md ("Exit codes") show. `CLIHelpTests` checks the docs' table against it.
enum ExitCode: Int32, CaseIterable {
    case success = 0
    case failed = 1
    case usage = 2
    case refused = 3
    case unavailable = 4
    case interrupted = 130
    case terminated = 143

    /// What the code means, whatever the command (a command's help may say more precisely what it means there).
    var meaning: String {
        switch self {
        case .success:
            "success: a run succeeded, found its input unchanged, or paused at a request budget"
        case .failed:
            "the command failed: a run on its input (a malformed file, a bad record stream, a statement the "
                + "database refused), or what it was asked for is not there (a run, a listing, a schema as new as "
                + "this mlsfeed)"
        case .usage:
            "usage or configuration error, found before anything ran; the database refused the configured role "
                + "(a wrong or missing password, a role that may not log in, a privilege it lacks); or a command that "
                + "writes pointed at a read-only hot standby"
        case .refused:
            "a safety rule refused the run and nothing changed: the withdraw guard, an incomplete dump (a dry run "
                + "too), the reject ratio, an incomplete key sweep, a replay already done"
        case .unavailable:
            "the database or the network is unavailable, a lock or statement timeout ran out, another run held "
                + "the source past load.lock_timeout (source busy (...)), or a disk is full (the spool directory, "
                + "the --output file, a tablespace of the server): worth a retry later"
        case .interrupted:
            "interrupted by SIGINT: a run rolls back, is recorded interrupted, and the database keeps its last good "
                + "state"
        case .terminated:
            "interrupted by SIGTERM, as for 130"
        }
    }
}
