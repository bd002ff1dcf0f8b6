import Foundation
import Testing

/// The exit-code table (`ExitCode`): `mlsfeed --help` prints it, and docs/operations.md ("Exit codes") holds the
/// same codes with the same meanings.
@Suite struct ExitCodeTests {
    /// The exit codes `mlsfeed --help` lists.
    static func overviewCodes() throws -> [(code: Int32, meaning: String)] {
        HelpText(command: "", text: try CLI.run(["--help"]).stdout).exits
    }

    @Test func operationsDocHoldsTheTableOfTheHelp() throws {
        let doc = try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/operations.md"), encoding: .utf8)
        let section = doc.components(separatedBy: "\n## Exit codes\n").dropFirst().first?
            .components(separatedBy: "\n## ").first ?? ""
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| code") }
            .map { line -> (code: Int32, meaning: String) in
                let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                return (Int32(cells[1]) ?? -1, cells[2].replacingOccurrences(of: "`", with: ""))
            }
        let help = try Self.overviewCodes()
        #expect(rows.map(\.code) == help.map(\.code))
        for (documented, printed) in zip(rows, help) {
            #expect(documented.meaning == printed.meaning, "exit \(printed.code)")
        }
    }
}
