import Foundation

/// A reader for `settings.format`; `source` (file name, URL or `-`) names the input in positions and messages.
public func makeRecordReader(settings: ParseSettings, source: String) -> RecordReader {
    let handler: any RecordHandler
    switch settings.format {
    case .triples(let triples): handler = TriplesHandler(settings: triples, source: source)
    case .retsCompact(let rets): handler = RETSCompactHandler(settings: rets, source: source)
    case .xml(let plain): handler = PlainXMLHandler(settings: plain, source: source)
    }
    return XMLRecordReader(handler: handler, settings: settings, source: source)
}

/// Parses the file at `path` (1 MiB chunks) and throws the records away: the parse stage alone, for benchmarks.
public func parseOnly(path: String, settings: ParseSettings) throws -> (records: Int, report: ParseReport) {
    let reader = makeRecordReader(settings: settings, source: path)
    let handle: FileHandle
    do {
        handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    } catch {
        throw InputError("cannot open for reading", at: SourcePosition(file: path, line: 1, column: 1))
    }
    defer { try? handle.close() }
    var records = 0
    while true {
        let data: Data?
        do {
            data = try handle.read(upToCount: 1 << 20)
        } catch {
            throw InputError("read failed: \(error.localizedDescription)",
                             at: SourcePosition(file: path, line: 1, column: 1))
        }
        guard let data, !data.isEmpty else { break }
        try reader.feed([UInt8](data)[...])
        records += reader.takeRecords().count
    }
    try reader.finish()
    records += reader.takeRecords().count
    return (records, reader.report)
}
