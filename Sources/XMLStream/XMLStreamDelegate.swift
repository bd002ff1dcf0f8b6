/// Receives the elements of a document from an `XMLPushParser`, in document order.
///
/// Character data is not delivered per event: set `parser.capturesText` and the parser appends text (entities,
/// character references and CDATA decoded, as UTF-8) to `parser.text`, which the delegate reads and clears.
/// Attributes and the start tag's position are available from the parser during `startElement` only.
/// A thrown error stops the parser and is rethrown unchanged by `feed` or `finish`.
public protocol XMLStreamDelegate: AnyObject {
    /// A start tag (or the start of an empty-element tag) was read.
    func startElement(_ name: XMLName, parser: XMLPushParser) throws
    /// An end tag (or the end of an empty-element tag) was read.
    func endElement(_ name: XMLName, parser: XMLPushParser) throws
}
