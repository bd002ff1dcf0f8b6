/// The element names and delimiter of a `triples` feed (label/key/value lists).
public struct TriplesSettings: Sendable, Hashable {
    public var recordElement: String = "listing"
    public var labelsElement: String = "labels"
    public var keysElement: String = "keys"
    public var valuesElement: String = "values"
    public var delimiter: String = "|"

    public init() {}
}

/// The settings of a `rets-compact` feed.
public struct RETSSettings: Sendable, Hashable {
    /// Fields (after mapping: source column names) whose comma-joined values are multi-valued lookups.
    public var multiValueColumns: Set<String> = []

    public init() {}
}

/// The settings of an `xml` feed: flat or nested records, read by the mapping's paths.
public struct PlainXMLSettings: Sendable, Hashable {
    /// The record element: a name, or a path of names (`REProperties/Residential/PropertyListing`) that the
    /// element's ancestors must end with.
    public var recordElement: String = "listing"
    /// Prefix → namespace URI, for prefixed path steps (`commons: http://rets.org/xsd/RETSCommons`).
    public var namespaces: [String: String] = [:]
    /// Element names whose values `extra` always holds as arrays, however many a record has.
    public var multiValue: [String] = []
    /// A record bigger than this (its text and attribute values) is rejected whole, with its position.
    public var maxRecordBytes: Int = 16 << 20

    public init() {}
}

/// The settings of a `reso-json` feed: RESO Web API (OData) pages, bare arrays or JSON Lines.
public struct ResoJSONSettings: Sendable, Hashable {
    /// Fields that are lists ("String List, Multi"): always arrays in `extra`, also when a server sent one
    /// record's list as a comma-joined string.
    public var multiValue: [String] = []
    /// A record bigger than this is rejected whole, with its position.
    public var maxRecordBytes: Int = 16 << 20
    /// Paths read besides the mapping's (the field that marks a deletion).
    public var alsoRead: [String] = []

    public init() {}
}

/// Which of the feed formats an input is, with its settings.
public enum FeedFormat: Sendable, Hashable {
    case triples(TriplesSettings)
    case retsCompact(RETSSettings)
    case xml(PlainXMLSettings)
    case resoJSON(ResoJSONSettings)
}

/// How the parse stage reads an input.
public struct ParseSettings: Sendable, Hashable {
    public var format: FeedFormat
    /// Declared source encoding (`ISO-8859-1`, ...) overriding the document's own declaration.
    public var encoding: String?
    /// Remove control characters XML 1.0 forbids before parsing, counting them.
    public var sanitize: Bool = false
    /// Records per emitted batch.
    public var batchSize: Int = 1000

    public init(format: FeedFormat, encoding: String? = nil, sanitize: Bool = false, batchSize: Int = 1000) {
        self.format = format
        self.encoding = encoding
        self.sanitize = sanitize
        self.batchSize = batchSize
    }
}
