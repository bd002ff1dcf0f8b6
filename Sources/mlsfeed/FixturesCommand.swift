import Foundation
import MLSFeed
import MLSFeedFixtures

/// `mlsfeed fixtures generate ...`.
enum FixturesCommand {
    static func main(_ args: [String]) throws -> Int32 {
        guard args.first == "generate" else { throw UsageError(message: "expected `fixtures generate`") }
        let arguments = Array(args.dropFirst())
        // The table's options first (an unknown or old one gets its did-you-mean), then the generator's own rules.
        _ = try Arguments(arguments, command: CommandHelp.fixtures, variant: "generate")
        let options: FixtureOptions
        do {
            options = try FixtureOptions(arguments: arguments)
        } catch let error as FixtureOptions.UsageError {
            throw UsageError(message: "\(error)")
        }
        let started = Date()
        let truth = try FixtureGenerator.generate(options)
        let seconds = Date().timeIntervalSince(started)
        let pages = truth.pages.map { " as \($0) pages" } ?? ""
        print("wrote \(options.output) (\(truth.records) records\(pages), \(truth.uniqueValid) unique valid listings) "
              + "and \(FixtureOptions.truthPath(for: options.output)) in \(String(format: "%.2f", seconds)) s")
        return 0
    }
}
