import Foundation

/// One input of a run: a file or standard input.
public struct InputFile: Sendable, Hashable {
    /// The path, or `-` for standard input.
    public var location: String
    public var bytes: Int64?

    public init(location: String, bytes: Int64? = nil) {
        self.location = location
        self.bytes = bytes
    }

    /// The name used in positions: the path as given.
    public var displayName: String { location }
}

/// Resolves `--input` / `source.input` — a path, a glob, a directory or `-` — to files in a deterministic order.
public enum InputLocator {
    public enum Order: String, Sendable { case name, mtime }

    /// Feed files in a directory: XML and gzipped XML, never hidden files.
    static let feedExtensions: Set<String> = ["xml", "gz", "txt"]

    public static func resolve(_ spec: String, order: Order = .name) throws -> [InputFile] {
        if spec == "-" { return [InputFile(location: "-")] }
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        var paths: [String]
        if fm.fileExists(atPath: spec, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                let names = try fm.contentsOfDirectory(atPath: spec)
                paths = names.filter { !$0.hasPrefix(".") && feedExtensions.contains(($0 as NSString).pathExtension) }
                    .map { (spec as NSString).appendingPathComponent($0) }
                if paths.isEmpty { throw FetchError("\(spec): no feed files (*.xml, *.gz) in this directory") }
            } else {
                paths = [spec]
            }
        } else if spec.contains(where: { "*?[".contains($0) }) {
            paths = glob(spec)
            if paths.isEmpty { throw FetchError("\(spec): no files match this pattern") }
        } else {
            throw FetchError("\(spec): no such file or directory")
        }
        var files = try paths.map { path -> (InputFile, Date) in
            let attributes = try fm.attributesOfItem(atPath: path)
            let size = (attributes[.size] as? NSNumber)?.int64Value
            return (InputFile(location: path, bytes: size), attributes[.modificationDate] as? Date ?? .distantPast)
        }
        switch order {
        case .name: files.sort { $0.0.location < $1.0.location }
        case .mtime: files.sort { ($0.1, $0.0.location) < ($1.1, $1.0.location) }
        }
        return files.map(\.0)
    }

    private static func glob(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard Glibc.glob(pattern, 0, nil, &result) == 0 else { return [] }
        return (0..<Int(result.gl_pathc)).compactMap { result.gl_pathv[$0].map { String(cString: $0) } }
    }
}

/// A problem getting an input's bytes (missing file, read error, HTTP failure).
public struct FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { "error: \(message)" }
}
