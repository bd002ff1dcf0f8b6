import Foundation
import MLSFeed

/// `mlsfeed mapping init --from-metadata FILE ...`: a starter mapping from RESO or RETS metadata.
enum MappingCommand {
    static func main(_ args: [String]) throws -> Int32 {
        guard args.first == "init" else { throw UsageError(message: "expected `mapping init`") }
        let parsed = try Arguments(Array(args.dropFirst()), command: CommandHelp.mapping, variant: "init")
        if let extra = parsed.positionals.first { throw UsageError(message: "unexpected argument \(extra)") }
        guard let file = parsed["from-metadata"] else { throw UsageError(message: "missing --from-metadata FILE") }
        let out = parsed["output"].flatMap { $0 == "-" ? nil : $0 }
        let force = parsed.has("force")
        if let out, !force, FileManager.default.fileExists(atPath: out) {
            throw UsageError(message: "\(out) exists; add --force to overwrite it")
        }

        var document = try MetadataReader.read(path: file)
        if parsed["class"] != nil && !document.format.isRETS {
            throw UsageError(message: "--class chooses a class of a RETS METADATA-TABLE; \(file) is RESO $metadata")
        }
        if let lookups = parsed["lookups"] { try document.addLookups(from: MetadataReader.read(path: lookups)) }
        let mapping = try StarterMapping(document: document, resource: parsed["resource"] ?? "Property",
                                         className: parsed["class"])
        let bytes = Data(mapping.yaml.utf8)
        for warning in mapping.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
        guard let out else {
            FileHandle.standardOutput.write(bytes)
            return 0
        }
        do {
            // Without --force the write itself refuses a file that appeared since the check.
            try bytes.write(to: URL(fileURLWithPath: out), options: force ? .atomic : .withoutOverwriting)
        } catch CocoaError.fileWriteFileExists {
            throw UsageError(message: "\(out) exists; add --force to overwrite it")
        } catch {
            throw OutputFailure(description: "error: \(out): cannot write (\(error.localizedDescription))")
        }
        let (placed, extra) = mapping.counts
        print("wrote \(out): \(mapping.entity.rawValue) mapping with \(placed) fields placed, \(extra) going to extra")
        return 0
    }
}

/// The mapping file could not be written (exit code 1).
private struct OutputFailure: Error, CustomStringConvertible {
    var description: String
}
