import Foundation

/// Resolves `--input` / `source.input` — a path, a glob, a directory, `-` or a URL — to inputs in a deterministic
/// order.
package enum InputLocator {
    package enum Order: String, Sendable { case name, mtime }

    /// Feed files in a directory: XML and gzipped XML, never hidden files.
    static let feedExtensions: Set<String> = ["xml", "gz", "txt"]

    package static func resolve(_ spec: String, order: Order = .name) throws -> [InputFile] {
        if spec == "-" { return [InputFile(location: "-")] }
        if isURL(spec) { return [InputFile(location: spec)] }
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

    /// True for an `http://` or `https://` URL (such an input is fetched, not looked up on disk).
    package static func isURL(_ spec: String) -> Bool {
        let lower = spec.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    private static func glob(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard Glibc.glob(pattern, 0, nil, &result) == 0 else { return [] }
        return (0..<Int(result.gl_pathc)).compactMap { result.gl_pathv[$0].map { String(cString: $0) } }
    }
}
