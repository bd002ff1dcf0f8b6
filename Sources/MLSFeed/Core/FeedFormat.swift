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

    package init() {}
}

/// The settings of a `reso-json` feed: RESO Web API (OData) pages, bare arrays or JSON Lines.
package struct ResoJSONSettings: Sendable, Hashable {
    /// Fields that are lists ("String List, Multi"): always arrays in `extra`, also when a server sent one
    /// record's list as a comma-joined string.
    package var multiValue: [String] = []
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
    /// A record bigger than this (`format.max_record_bytes`: its text, attribute values, a flat record's lists) is
    /// rejected whole, with its position; its bytes are dropped as they come, never gathered.
    package var maxRecordBytes: Int = ParseSettings.defaultMaxRecordBytes
    /// The deepest nesting of elements (XML) or of objects and arrays (JSON) accepted (`format.max_depth`; the root
    /// is level 1): a deeper one fails the input at its position.
    package var maxDepth: Int = ParseSettings.defaultMaxDepth

    /// `maxRecordBytes` unless a pipeline says otherwise: 16 MiB.
    package static let defaultMaxRecordBytes = 16 << 20
    /// `maxDepth` unless a pipeline says otherwise: libxml2's own bound without its `HUGE` option.
    package static let defaultMaxDepth = 256
    /// The bounds of `format.max_record_bytes`.
    package static let maxRecordBytesRange = 1024...(1 << 30)
    /// The bounds of `format.max_depth`: a record's tree is walked recursively (its `extra` JSON), a frame or so a
    /// level, so the bound keeps the deepest walk far inside a thread's stack.
    package static let maxDepthRange = 1...1024

    package init(format: FeedFormat, encoding: String? = nil, sanitize: Bool = false, batchSize: Int = 1000,
                 maxRecordBytes: Int = ParseSettings.defaultMaxRecordBytes,
                 maxDepth: Int = ParseSettings.defaultMaxDepth) {
        self.format = format
        self.encoding = encoding
        self.sanitize = sanitize
        self.batchSize = batchSize
        self.maxRecordBytes = maxRecordBytes
        self.maxDepth = maxDepth
    }
}
