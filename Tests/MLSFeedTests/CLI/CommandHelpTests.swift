import Foundation
import Testing
@testable import MLSFeedFixtures

/// Every command's `--help` (from `CommandHelp`): the options it describes are the ones the command takes, its usage
/// lines name only those, it ends with the exit codes the command can return, and old spellings are refused with
/// the new one named.
@Suite struct CommandHelpTests {
    /// Each option a command's help describes is taken by the command (by one of its variants): `COMMAND [VARIANT]
    /// --option [x] --help` parses and prints the help.
    @Test func everyDescribedOptionIsTaken() throws {
        for (command, variants) in try HelpText.commands() {
            let help = try HelpText(command)
            #expect(!help.exits.isEmpty, "\(command) --help lists no exit codes")
            for option in help.options {
                let spelled = "--\(option.name)" + (option.takesValue ? "=x" : "")
                let taken = try variants.contains { variant in
                    let result = try CLI.run([command] + (variant.isEmpty ? [] : [variant]) + [spelled, "--help"])
                    return result.status == 0 && result.stdout == help.text
                }
                #expect(taken, "mlsfeed \(command) refuses \(spelled), which its help describes")
            }
        }
    }

    /// An option no help describes is refused by every command, with the usage.
    @Test func anOptionTheHelpDoesNotDescribeIsRefused() throws {
        for (command, variants) in try HelpText.commands() {
            let result = try CLI.run([command] + (variants[0].isEmpty ? [] : [variants[0]]) + ["--frobnicate"])
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.hasPrefix("error: unknown option --frobnicate\n"), "\(command): \(result.stderr)")
            #expect(result.stderr.contains("usage: mlsfeed \(command)"))
        }
    }

    /// A usage line names only options described below it.
    @Test func usageLinesNameOnlyDescribedOptions() throws {
        for (command, _) in try HelpText.commands() {
            let help = try HelpText(command)
            let described = Set(help.options.map(\.name))
            for line in help.usage {
                let named = line.split(whereSeparator: { " []|".contains($0) }).filter { $0.hasPrefix("--") }
                for option in named {
                    #expect(described.contains(String(option.dropFirst(2))),
                            "mlsfeed \(command): the usage names \(option), which the help does not describe")
                }
            }
        }
    }

    /// `mlsfeed help COMMAND` is `mlsfeed COMMAND --help`; `-h` too.
    @Test func helpCommandAndFlagPrintTheSame() throws {
        for (command, _) in try HelpText.commands() {
            let help = try HelpText(command)
            #expect(try CLI.run(["help", command]).stdout == help.text)
            #expect(try CLI.run([command, "-h"]).stdout == help.text)
            #expect(help.text.hasPrefix("usage: mlsfeed \(command)"))
        }
    }

    /// Each command's help ends with the exit codes it can return, in order, each one of the table's.
    @Test func everyHelpEndsWithItsExitCodes() throws {
        let table = Set(try ExitCodeTests.overviewCodes().map(\.code))
        for (command, _) in try HelpText.commands() {
            let help = try HelpText(command)
            let codes = help.exits.map(\.code)
            #expect(codes == codes.sorted(), "\(command): \(codes)")
            #expect(Set(codes).isSubset(of: table), "\(command): \(codes)")
            #expect(codes.contains(0) && codes.contains(130) && codes.contains(143), "\(command): \(codes)")
            let last = help.text.split(separator: "\n").last.map(String.init) ?? ""
            #expect(last.hasPrefix("  143  "), "\(command) --help does not end with its exit codes: \(last)")
        }
    }

    /// `fixtures generate` checks its arguments twice (the table, then the generator's rules): both know the same
    /// options.
    @Test func fixturesGenerateTakesWhatItsHelpDescribes() throws {
        let help = try HelpText("fixtures")
        #expect(Set(help.options.map { "--" + $0.name }) == FixtureOptions.optionNames)
    }

    @Test(arguments: [
        (["fixtures", "generate", "--listings", "5", "--out", "f.xml"],
         "error: unknown option --out; did you mean --output?"),
        (["mapping", "init", "--from-metadata", "m.xml", "--out", "m.yaml"],
         "error: unknown option --out; did you mean --output?"),
        (["bench-parse", "f.xml", "--format", "json"], "error: unknown option --format; did you mean --input-format?"),
        (["bench-parse", "f.xml", "--input-format", "json"],
         "error: --input-format must be triples, rets-compact, xml or reso-json, got json"),
        (["runs", "--pipeline", "sample"], "error: unknown option --pipeline; did you mean --name?"),
        (["rejects", "--last", "--pipeline", "sample"], "error: unknown option --pipeline; did you mean --name?"),
        (["bench-parse", "f.xml", "--pipeline", "syndication"],
         "error: --pipeline takes a pipeline file, not a name; did you mean --pipeline pipelines/syndication.yaml?"),
        (["rejects", "replay", "--run", "1", "--pipeline", "sample"],
         "error: --pipeline takes a pipeline file, not a name; did you mean --pipeline pipelines/sample.yaml?"),
        (["rejects", "replay", "--run", "1", "--pipeline", "nosuch.yaml"],
         "error: --pipeline nosuch.yaml: no such pipeline file"),
        (["help", "serch"], "error: no command serch; did you mean search?"),
        (["completion", "fish"], "error: no completion for fish; expected bash or zsh"),
    ])
    func oldSpellingsAreRefusedNamingTheNewOne(arguments: [String], message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message + "\n"), "\(result.stderr)")
    }

    /// The README's commands table gives each command the exit codes its help lists.
    @Test func readmeCommandsTableHasEachCommandsExitCodes() throws {
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        var rows: [String: [Int32]] = [:]
        for line in readme.split(separator: "\n") where line.hasPrefix("| `mlsfeed ") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let command = cells[0].dropFirst("`mlsfeed ".count).prefix { $0 != " " && $0 != "`" }
            rows[String(command)] = cells.last!.split(separator: " ").compactMap { Int32($0) }
        }
        let commands = try HelpText.commands()
        #expect(Set(rows.keys) == Set(commands.map(\.name)))
        for (command, _) in commands {
            #expect(rows[command] == (try HelpText(command)).exits.map(\.code),
                    "README's commands table: \(command) has \(rows[command] ?? []), its help says otherwise")
        }
    }
}
