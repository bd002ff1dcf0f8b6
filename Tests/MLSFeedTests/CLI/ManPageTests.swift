import Foundation
import Testing

/// `mlsfeed man`: a manual page groff reads without a warning, holding every command's help word for word.
@Suite struct ManPageTests {
    /// `mlsfeed man` rendered by groff as plain text (no hyphenation: the page turns it off).
    static func rendered() throws -> (text: String, warnings: String) {
        let page = try CLI.run(["man"])
        #expect(page.status == 0)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mlsfeed-\(UUID().uuidString).1")
        defer { try? FileManager.default.removeItem(at: file) }
        try page.stdout.write(to: file, atomically: true, encoding: .utf8)
        // -ww: every warning; -P-cbou: plain text without overstriking or escape sequences.
        let groff = try CLI.run(program: URL(fileURLWithPath: "/usr/bin/groff"),
                                ["-man", "-Tascii", "-ww", "-P-cbou", file.path])
        #expect(groff.status == 0)
        return (groff.stdout, groff.stderr)
    }

    @Test func groffReadsItWithoutAWarning() throws {
        let page = try Self.rendered()
        #expect(page.warnings.isEmpty, "\(page.warnings)")
        #expect(page.text.hasPrefix("MLSFEED(1)"))
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "GLOBAL OPTIONS", "EXIT STATUS",
                        "ENVIRONMENT", "FILES", "SEE ALSO"] {
            #expect(page.text.contains("\n\(section)\n"), "no section \(section)")
        }
    }

    /// Each command's `--help` (usage, description, arguments, options, exit codes) is in the page as it is, in the
    /// command's own section.
    @Test func everyCommandsHelpIsInThePage() throws {
        let page = HelpText.normalized(try Self.rendered().text)
        for (command, _) in try HelpText.commands() {
            let help = try HelpText(command)
            let body = help.text.replacingOccurrences(of: "usage: ", with: "")
                .replacingOccurrences(of: "\nexit codes:\n", with: "\nExit codes:\n")
            #expect(page.contains(HelpText.normalized(command + "\n" + body)),
                    "the man page's section \(command) differs from `mlsfeed \(command) --help`")
        }
    }

    /// The page's exit status section is the table `mlsfeed --help` prints.
    @Test func exitStatusIsTheTable() throws {
        let page = HelpText.normalized(try Self.rendered().text)
        let table = try ExitCodeTests.overviewCodes().map { "\($0.code) \($0.meaning)" }.joined(separator: " ")
        #expect(page.contains("EXIT STATUS " + HelpText.normalized(table) + " ENVIRONMENT"))
    }
}
