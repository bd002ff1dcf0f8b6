/// What one metadata file holds: its tables (EDMX entity types or RETS METADATA-TABLEs) and lookups.
package struct MetadataDocument: Sendable {
    /// The shape the file came in.
    package enum Format: String, Sendable {
        case edmx = "RESO $metadata (EDMX)"
        case retsCompact = "RETS METADATA (COMPACT)"
        case retsStandardXML = "RETS METADATA (STANDARD-XML)"

        /// True for the two RETS shapes.
        package var isRETS: Bool { self != .edmx }
    }

    /// The file as named on the command line.
    package var file: String
    package var format: Format
    /// What the header comment says about the document as a whole (`Version=4.0`).
    package var provenance: String = ""
    package var tables: [MetadataTable] = []
    /// Lookups by key: an EDMX enum type's qualified names (`Namespace.Name`, `Alias.Name`), or
    /// `Resource:LookupName` for RETS (see `retsLookupKey`).
    package var lookups: [String: MetadataLookup] = [:]
    /// The files lookups were added from (`--lookups`), for the header comment.
    package var lookupFiles: [String] = []

    package init(file: String, format: Format) {
        self.file = file
        self.format = format
    }

    /// The key of a RETS lookup in `lookups`.
    static func retsLookupKey(resource: String, lookup: String) -> String { "\(resource):\(lookup)" }

    /// Adds the lookups of a second RETS file (a `METADATA-LOOKUP_TYPE` reply); lookups already here are kept.
    package mutating func addLookups(from other: MetadataDocument) throws {
        guard format.isRETS && other.format.isRETS else {
            throw MetadataError("\(other.file): lookups come from a RETS METADATA-LOOKUP_TYPE reply, and only for a "
                                + "RETS METADATA-TABLE")
        }
        guard !other.lookups.isEmpty else {
            throw MetadataError("\(other.file): no METADATA-LOOKUP_TYPE in the file")
        }
        lookups.merge(other.lookups) { mine, _ in mine }
        lookupFiles.append(other.file)
    }

    /// The table of `resource` (and, for RETS, `className`: needed when the resource has several classes).
    ///
    /// Names match ignoring case. For RETS, `Member` also finds the RETS resources `Agent` and `ActiveAgent`.
    package func table(resource: String, className: String?) throws -> MetadataTable {
        var names = [resource]
        if format.isRETS && resource.lowercased() == "member" { names += ["Agent", "ActiveAgent"] }
        let found = tables.filter { table in names.contains { $0.lowercased() == table.resource.lowercased() } }
        guard let first = found.first else {
            let kind = format.isRETS ? "METADATA-TABLE for resource" : "EntityType"
            let listed = tables.map { table in table.className.map { "\(table.resource):\($0)" } ?? table.resource }
            let have = listed.isEmpty ? "the file has none"
                : "the file has " + Self.uniqued(listed).joined(separator: ", ")
            throw MetadataError("\(file): no \(kind) \(quoted(resource)) (\(have))")
        }
        guard format.isRETS else { return first }
        let classes = Self.uniqued(found.compactMap(\.className))
        if let className {
            guard let match = found.first(where: { $0.className?.lowercased() == className.lowercased() }) else {
                throw MetadataError("\(file): no class \(quoted(className)) of \(first.resource) (classes: "
                                    + "\(classes.joined(separator: ", ")))")
            }
            return match
        }
        guard classes.count <= 1 else {
            throw MetadataError("\(file): \(first.resource) has several classes (\(classes.joined(separator: ", "))): "
                                + "choose one with --class")
        }
        return first
    }

    private static func uniqued(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }
}
