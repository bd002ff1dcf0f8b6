import XMLStream

/// The format-specific half of a reader: turns element events into raw records.
///
/// `bind` runs once the parser exists (to intern element names); `chunkEnded` after each fed chunk;
/// `finish` after the document ended cleanly, and must leave every record ready for `takeRecords`.
protocol RecordHandler: XMLStreamDelegate {
    /// Warnings and counts gathered so far.
    var report: ParseReport { get }
    /// Interns the element names the handler compares against.
    func bind(_ parser: XMLPushParser)
    /// The records completed so far and not yet taken, in document order (a flat record's fields unsplit).
    func takeRecords() -> [RawRecord]
    /// A chunk was parsed: a handler may hand its pending work on here.
    func chunkEnded(_ parser: XMLPushParser)
    /// Checks made once the whole document was read; completes all pending records.
    func finish(_ parser: XMLPushParser) throws
}

extension RecordHandler {
    func chunkEnded(_ parser: XMLPushParser) {}
    func finish(_ parser: XMLPushParser) throws {}
}
