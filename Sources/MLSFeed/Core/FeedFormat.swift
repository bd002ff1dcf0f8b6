/// The element names and delimiter of a `triples` feed (label/key/value lists).
package struct TriplesSettings: Sendable, Hashable {
    package var recordElement: String = "listing"
    package var labelsElement: String = "labels"
    package var keysElement: String = "keys"
    package var valuesElement: String = "values"
    package var delimiter: String = "|"

    package init() {}
}

/// The settings of a `rets-compact` feed.
package struct RETSSettings: Sendable, Hashable {
    /// Fields (after mapping: source column names) whose comma-joined values are multi-valued lookups.
    package var multiValueColumns: Set<String> = []

    package init() {}
}

/// The settings of an `xml` feed: flat or nested records, read by the mapping's paths.
package struct PlainXMLSettings: Sendable, Hashable {
    /// The record element: a name, or a path of names (`REProperties/Residential/PropertyListing`) that the
    /// element's ancestors must end with.
    package var recordElement: String = "listing"
    /// Prefix → namespace URI, for prefixed path steps (`commons: http://rets.org/xsd/RETSCommons`).
    package var namespaces: [String: String] = [:]
    /// Element names whose values `extra` always holds as arrays, however many a record has.
    package var multiValue: [String] = []
    /// A record bigger than this (its text and attribute values) is rejected whole, with its position.
    package var maxRecordBytes: Int = 16 << 20

    package init() {}
}

/// The settings of a `reso-json` feed: RESO Web API (OData) pages, bare arrays or JSON Lines.
package struct ResoJSONSettings: Sendable, Hashable {
    /// Fields that are lists ("String List, Multi"): always arrays in `extra`, also when a server sent one
    /// record's list as a comma-joined string.
    package var multiValue: [String] = []
    /// A record bigger than this is rejected whole, with its position.
    package var maxRecordBytes: Int = 16 << 20
    /// Paths read besides the mapping's (the field that marks a deletion; a replicated resource's replication field
    /// and tie-break key).
    package var alsoRead: [String] = []

    package init() {}
}

/// Which of the feed formats an input is, with its settings.
package enum FeedFormat: Sendable, Hashable {
    case triples(TriplesSettings)
    case retsCompact(RETSSettings)
    case xml(PlainXMLSettings)
    case resoJSON(ResoJSONSettings)
}

/// How the parse stage reads an input.
package struct ParseSettings: Sendable, Hashable {
    package var format: FeedFormat
    /// Declared source encoding (`ISO-8859-1`, ...) overriding the document's own declaration.
    package var encoding: String?
    /// Remove control characters XML 1.0 forbids before parsing, counting them.
    package var sanitize: Bool = false
    /// Records per emitted batch.
    package var batchSize: Int = 1000

    package init(format: FeedFormat, encoding: String? = nil, sanitize: Bool = false, batchSize: Int = 1000) {
        self.format = format
        self.encoding = encoding
        self.sanitize = sanitize
        self.batchSize = batchSize
    }
}
