import XMLStream

/// The format-specific half of a reader: turns element events into raw records.
///
/// `bind` runs once the parser exists (to intern element names); `chunkEnded` after each fed chunk;
/// `finish` after the document ended cleanly, and must leave every record ready for `takeRecords`.
protocol RecordHandler: XMLStreamDelegate {
    /// Warnings and counts gathered so far.
    var report: ParseReport { get }
    /// The bytes the handler holds besides the parser's text buffer (a structured record's trees).
    var heldBytes: Int { get }
    /// Interns the element names the handler compares against.
    func bind(_ parser: XMLPushParser)
    /// The records completed so far and not yet taken, in document order (a flat record's fields unsplit).
    func takeRecords() -> [RawRecord]
    /// A chunk was parsed: a handler may hand its pending work on here, and check what it gathers (a throw fails
    /// the input).
    func chunkEnded(_ parser: XMLPushParser) throws
    /// Checks made once the whole document was read; completes all pending records.
    func finish(_ parser: XMLPushParser) throws
}

extension RecordHandler {
    /// Flat handlers keep their texts in the parser's buffer only.
    var heldBytes: Int { 0 }
    func chunkEnded(_ parser: XMLPushParser) {}
    func finish(_ parser: XMLPushParser) throws {}
}
