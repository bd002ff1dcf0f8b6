import Foundation
import MLSFeed

/// Masks the password of `--database URL` (`postgresql://user:PASSWORD@host/db`, or a conninfo's `password=...`)
/// in the process's own argument memory at start, as database clients do, so that `ps` and `/proc/PID/cmdline`
/// show `postgresql://user:***@host/db` for the rest of the run instead of the password.
///
/// The kernel shows a process's command line from the memory its arguments were passed in, and
/// `CommandLine.unsafeArgv` points at those strings: each masked argument is overwritten in place with its
/// redacted text (`Redactor.scrub`), cut to the argument's length and padded with NUL bytes, so nothing past it is
/// touched. `CommandLine.arguments`, read first, keeps the real value for the command. This is the CLI's only code
/// that writes through a pointer. Until it runs (the first instants of the process) the password is visible: the
/// docs steer to `PGPASSWORD`, `~/.pgpass` or `MLSFEED_DATABASE_URL` instead.
enum DatabaseArgumentScrub {
    /// The option whose value is masked (also as `--database=VALUE`).
    static let option = "--database"

    /// Masks every `--database` value among the process's arguments.
    static func apply() {
        // The parsed copy the commands read, made before any byte changes.
        _ = CommandLine.arguments
        let argv = CommandLine.unsafeArgv
        var index = 1
        while index < Int(CommandLine.argc), let argument = argv[index] {
            let text = String(cString: argument)
            if text == option, index + 1 < Int(CommandLine.argc), let value = argv[index + 1] {
                mask(value, from: 0)
                index += 2
                continue
            }
            if text.hasPrefix(option + "=") { mask(argument, from: option.utf8.count + 1) }
            index += 1
        }
    }

    /// Overwrites the C string at `argument` from byte `offset` with its redacted text, NUL-padded, when that
    /// differs (a value without a password stays as it is).
    private static func mask(_ argument: UnsafeMutablePointer<CChar>, from offset: Int) {
        let length = strlen(argument)
        let value = String(cString: argument + offset)
        let masked = Redactor.scrub(value)
        guard masked != value else { return }
        let bytes = Array(masked.utf8.prefix(length - offset))
        for (position, byte) in bytes.enumerated() { argument[offset + position] = CChar(bitPattern: byte) }
        for position in (offset + bytes.count)..<length { argument[position] = 0 }
    }
}
