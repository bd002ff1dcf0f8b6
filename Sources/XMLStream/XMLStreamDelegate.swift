/// Receives the elements of a document from an `XMLPushParser`, in document order.
///
/// Character data (entities, character references and CDATA decoded, as UTF-8) is delivered one of two ways: set
/// `parser.capturesText` and the parser appends it to `parser.text`, which the delegate reads and clears; or set
/// `parser.streamsText` and the parser hands each piece to `characters(_:parser:)` as it reads it.
/// Attributes and the start tag's position are available from the parser during `startElement` only.
/// A thrown error stops the parser and is rethrown unchanged by `feed` or `finish`.
public protocol XMLStreamDelegate: AnyObject {
    /// A start tag (or the start of an empty-element tag) was read.
    func startElement(_ name: XMLName, parser: XMLPushParser) throws
    /// An end tag (or the end of an empty-element tag) was read.
    func endElement(_ name: XMLName, parser: XMLPushParser) throws
    /// A piece of character data, while `parser.streamsText` is set; the bytes are valid during the call only.
    func characters(_ text: Span<UInt8>, parser: XMLPushParser)
    /// What the parser calls for a start tag, with the name's id (`XMLName.id`); by default it calls
    /// `startElement(_:parser:)` with `parser.name(id:)`. A delegate that needs only ids implements this one: an
    /// `XMLName` per event retains and releases its string.
    func startElement(id: Int, parser: XMLPushParser) throws
    /// What the parser calls for an end tag, with the name's id; by default it calls `endElement(_:parser:)`.
    func endElement(id: Int, parser: XMLPushParser) throws
}

extension XMLStreamDelegate {
    /// Builds the name and calls `startElement(_:parser:)`.
    public func startElement(id: Int, parser: XMLPushParser) throws {
        try startElement(parser.name(id: id), parser: parser)
    }

    /// Builds the name and calls `endElement(_:parser:)`.
    public func endElement(id: Int, parser: XMLPushParser) throws {
        try endElement(parser.name(id: id), parser: parser)
    }

    /// Ignores text: a delegate that never sets `streamsText` need not implement `characters`.
    public func characters(_ text: Span<UInt8>, parser: XMLPushParser) {}
}
