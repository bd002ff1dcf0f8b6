import XMLStream

/// The format-specific half of a reader: turns element events into raw records.
///
/// `bind` runs once the parser exists (to intern element names); `finish` after the document ended cleanly.
protocol RecordHandler: XMLStreamDelegate {
    /// The records completed so far and not yet taken.
    var records: [RawRecord] { get set }
    /// Warnings and counts gathered so far.
    var report: ParseReport { get }
    /// Interns the element names the handler compares against.
    func bind(_ parser: XMLPushParser)
    /// Checks made once the whole document was read.
    func finish(_ parser: XMLPushParser) throws
}

extension RecordHandler {
    func finish(_ parser: XMLPushParser) throws {}
}
