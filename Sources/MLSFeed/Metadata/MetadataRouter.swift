import XMLStream

/// What reads one kind of metadata document: element events in, a `MetadataDocument` out.
protocol MetadataCollector: XMLStreamDelegate {
    /// The document, once the parser has finished.
    func finish() throws -> MetadataDocument
}

/// Hands a document to the collector its root element calls for: `edmx:Edmx` to `EDMXCollector`, `RETS` or
/// `METADATA` to `RETSMetadataCollector`; any other root is refused.
final class MetadataRouter: XMLStreamDelegate {
    private let file: String
    private var collector: (any MetadataCollector)?

    init(file: String) {
        self.file = file
    }

    func startElement(_ name: XMLName, parser: XMLPushParser) throws {
        if let collector { return try collector.startElement(name, parser: parser) }
        let made: any MetadataCollector
        switch name.string {
        case "Edmx": made = EDMXCollector(file: file, parser: parser)
        case "RETS", "METADATA": made = RETSMetadataCollector(file: file, parser: parser)
        default:
            let (line, column) = parser.startTagPosition
            throw InputError("expected RESO $metadata (edmx:Edmx) or a RETS METADATA reply (RETS), found \(name)",
                             at: SourcePosition(file: file, line: line, column: column))
        }
        collector = made
        try made.startElement(name, parser: parser)
    }

    func endElement(_ name: XMLName, parser: XMLPushParser) throws {
        try collector?.endElement(name, parser: parser)
    }

    func finish() throws -> MetadataDocument {
        guard let collector else { throw MetadataError("\(file): no root element") }
        return try collector.finish()
    }
}
