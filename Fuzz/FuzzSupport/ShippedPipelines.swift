import Foundation
import MLSFeed

/// The pipelines shipped in `pipelines/` (the targets run from the repository root), as the structured reader
/// targets read with them: their format settings, mapping and time zone.
package enum ShippedPipelines {
    /// Values for the variables the shipped pipelines name (none is a real secret).
    static let environment = ["RESO_CLIENT_ID": "fuzz", "RESO_CLIENT_SECRET": "fuzz"]

    /// The shipped pipelines, by file name, whose format `matches` accepts; stops the process when none does.
    package static func load(where matches: (FeedFormat) -> Bool) -> [PipelineConfig] {
        let folder = "pipelines"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var pipelines: [PipelineConfig] = []
        for name in names.sorted() where name.hasSuffix(".yaml") {
            do {
                let config = try PipelineConfig.load(path: "\(folder)/\(name)", project: ProjectConfig(),
                                                     environment: environment)
                if matches(config.parse.format) { pipelines.append(config) }
            } catch {
                fatalError("\(folder)/\(name): \(error)")
            }
        }
        precondition(!pipelines.isEmpty, "no pipeline of this format in \(folder): run from the repository root")
        return pipelines
    }
}
