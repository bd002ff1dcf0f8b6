import PackagePlugin

/// Embeds a target's `.sql` files into it as Swift string literals at build time (the `sql-embed` tool writes one
/// `EmbeddedSQL.swift`), so the SQL ships inside the binary: nothing to find beside it at run time.
@main struct EmbedSQL: BuildToolPlugin {
    /// One command: every `.sql` file of the target in, the generated Swift file out (rerun when any of them changes).
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let files = target.sourceFiles(withSuffix: "sql").map(\.url).sorted { $0.path < $1.path }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedSQL.swift")
        return [
            .buildCommand(displayName: "Embedding \(files.count) SQL files in \(target.name)",
                          executable: try context.tool(named: "sql-embed").url,
                          arguments: [target.name, output.path] + files.map(\.path),
                          inputFiles: files, outputFiles: [output]),
        ]
    }
}
