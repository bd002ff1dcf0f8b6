import Foundation

/// A reader for `settings.format`; `source` (file name, URL or `-`) names the input in positions and messages.
/// Structured formats read the values `mapping`'s paths name (without one, everything goes to `extra`).
/// With a `recognizer`, triples and RETS COMPACT records get their raw fingerprint and stored listings are
/// recognised while splitting (the structured formats leave that to the normalizer, which has their fields).
/// `rewritesNonASCII` overrides the format's choice of `XMLPushParser`'s rewriting (the fuzz targets compare both).
package func makeRecordReader(settings: ParseSettings, source: String, mapping: Mapping? = nil,
                             recognizer: RawRecognizer? = nil, rewritesNonASCII: Bool? = nil) -> RecordReader {
    let handler: any RecordHandler
    switch settings.format {
    case .resoJSON(let json):
        return ResoJSONReader(settings: json, mapping: mapping ?? Mapping(entity: .listing, fields: []), source: source,
                              maxRecordBytes: settings.maxRecordBytes, maxDepth: settings.maxDepth)
    case .triples(let triples):
        // The mapping says which key holds the MLS number (messages name it); without one (bench-parse) none does.
        handler = TriplesHandler(settings: triples, source: source, keySources: mapping?.keySources ?? [],
                                 recognizer: recognizer, maxRecordBytes: settings.maxRecordBytes)
    case .retsCompact(let rets):
        handler = RETSCompactHandler(settings: rets, source: source, recognizer: recognizer,
                                     maxRecordBytes: settings.maxRecordBytes)
    case .xml(let xml):
        handler = StructuredXMLHandler(settings: xml, mapping: mapping ?? Mapping(entity: .listing, fields: []),
                                       source: source, maxRecordBytes: settings.maxRecordBytes)
    }
    // A flat record is one long text (a row): from its first non-ASCII character libxml2 would read the rest one
    // character at a time. A structured record's texts are short: rewriting cost more than it saved (syndication).
    let flat: Bool
    switch settings.format {
    case .triples, .retsCompact: flat = true
    case .xml, .resoJSON: flat = false
    }
    return XMLRecordReader(handler: handler, settings: settings, source: source,
                           rewritesNonASCII: rewritesNonASCII ?? flat)
}

/// Parses the file at `path` (in chunks of the fetch stage's size) and throws the records away: the parse stage
/// alone, for benchmarks.
/// Structured formats read the values `mapping`'s paths name, as in a run of the pipeline that has it.
///
/// As in a real run, where the next stage consumes records on its own thread, the records are released off the
/// parsing thread (at most a few batches wait for that).
package func parseOnly(path: String, settings: ParseSettings,
                       mapping: Mapping? = nil) throws -> (records: Int, report: ParseReport) {
    let reader = makeRecordReader(settings: settings, source: path, mapping: mapping)
    let disposal = DispatchQueue(label: "mlsfeed.parse-only.release")
    let pending = DispatchSemaphore(value: 4)
    defer { disposal.sync {} }
    func consume(_ batch: [RawRecord]) -> Int {
        guard !batch.isEmpty else { return 0 }
        pending.wait()
        disposal.async {
            withExtendedLifetime(batch) {}
            pending.signal()
        }
        return batch.count
    }
    guard let stream = InputStream(fileAtPath: path) else {
        throw InputError("cannot open for reading", at: SourcePosition(file: path, line: 1, column: 1))
    }
    stream.open()
    defer { stream.close() }
    if stream.streamStatus == .error {
        throw InputError("cannot open for reading", at: SourcePosition(file: path, line: 1, column: 1))
    }
    var buffer = [UInt8](repeating: 0, count: Fetcher.chunkSize)
    var records = 0
    while true {
        let count = stream.read(&buffer, maxLength: buffer.count)
        if count < 0 {
            let reason = stream.streamError?.localizedDescription ?? "read failed"
            throw InputError("cannot read: \(reason)", at: SourcePosition(file: path, line: 1, column: 1))
        }
        if count == 0 { break }
        try reader.feed(buffer[0..<count])
        records += consume(reader.takeRecords(split: false))
    }
    try reader.finish()
    records += consume(reader.takeRecords(split: false))
    return (records, reader.report)
}
