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
}

extension XMLStreamDelegate {
    /// Ignores text: a delegate that never sets `streamsText` need not implement `characters`.
    public func characters(_ text: Span<UInt8>, parser: XMLPushParser) {}
}
