import MLSFeed

extension FixtureWriter {
    /// The document start: XML declaration and root element (plus the header lists of a header-once dump); for
    /// `reso-json` the first page's start (nothing for JSON Lines).
    func begin(source: String, generated: String, records: Int) throws {
        let (format, shape) = (self.format, self.shape)
        if format == .resoJSON {
            totalRecords = records
            if let pageSize {
                pageCount = max(1, (records + pageSize - 1) / pageSize)
                try openNextPage()
            }
            if !jsonLines { try beginPage(records: records) }
            return
        }
        try emit { out in
            out.append(contentsOf: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".utf8)
            switch format {
            case .triples where shape == .header:
                FixtureWriter.root("dump", source: source, generated: generated, into: &out)
                out.append(contentsOf: "  <labels>".utf8)
                FixtureWriter.joined(FixtureField.labels, delimiter: UInt8(ascii: "|"), into: &out)
                out.append(contentsOf: "</labels>\n  <keys>".utf8)
                FixtureWriter.joined(FixtureField.keys, delimiter: UInt8(ascii: "|"), into: &out)
                out.append(contentsOf: "</keys>\n".utf8)
            case .triples, .xml:
                FixtureWriter.root("listings", source: source, generated: generated, into: &out)
            case .retsCompact:
                out.append(contentsOf: "<RETS ReplyCode=\"0\" ReplyText=\"Success\">\n".utf8)
                out.append(contentsOf: "<COUNT Records=\"\(records)\"/>\n<DELIMITER value=\"09\"/>\n<COLUMNS>\t".utf8)
                FixtureWriter.joined(FixtureField.keys, delimiter: 9, into: &out)
                out.append(contentsOf: "\t</COLUMNS>\n".utf8)
            case .syndication:
                out.append(contentsOf: FixtureSyndication.root(source: source, generated: generated).utf8)
            case .resoJSON:
                break
            }
        }
    }

    func end() throws {
        let (format, shape) = (self.format, self.shape)
        if format == .resoJSON {
            if !jsonLines { try endPage(next: nil) }
            precondition(pageSize == nil || page == pageCount, "reso-json pages: \(page) written of \(pageCount)")
            return
        }
        try emit { out in
            switch format {
            case .triples: out.append(contentsOf: (shape == .header ? "</dump>\n" : "</listings>\n").utf8)
            case .retsCompact: out.append(contentsOf: "</RETS>\n".utf8)
            case .xml: out.append(contentsOf: "</listings>\n".utf8)
            case .syndication: out.append(contentsOf: "</Listings>\n".utf8)
            case .resoJSON: break
            }
        }
    }

    /// An OData page's start: context, the total count (as servers send with `$count=true`), the records array.
    private func beginPage(records: Int) throws {
        try emit { out in
            out.append(contentsOf: "{\"@odata.context\":\"$metadata#Property\",".utf8)
            out.append(contentsOf: "\"@odata.count\":\(records),\"value\":[\n".utf8)
        }
    }

    /// An OData page's end, naming the next page (a reference relative to this page's own location).
    private func endPage(next: String?) throws {
        try emit { out in
            out.append(contentsOf: "\n]".utf8)
            if let next {
                out.append(contentsOf: ",\"@odata.nextLink\":".utf8)
                FixtureJSONText.string(next, into: &out)
            }
            out.append(contentsOf: "}\n".utf8)
        }
    }

    /// One `reso-json` record: a line of JSON Lines, or the next member of the page's `value` (starting the next
    /// page when this one is full).
    private func writeResoJSON(_ rec: FixtureRecord) throws {
        if let pageSize, recordsInPage == pageSize {
            try endPage(next: pageName(page + 1))
            try openNextPage()
            try beginPage(records: totalRecords)
        }
        let (lines, first) = (jsonLines, recordsInPage == 0)
        recordsInPage += 1
        try emit { out in
            if !lines && !first { out.append(contentsOf: ",\n".utf8) }
            FixtureResoJSON.write(rec, into: &out)
            if lines { out.append(UInt8(ascii: "\n")) }
        }
    }

    private static func root(_ name: String, source: String, generated: String, into out: inout [UInt8]) {
        out.append(contentsOf: "<\(name) source=\"".utf8)
        FixtureXMLText.escaped(source, into: &out)
        out.append(contentsOf: "\" generated=\"\(generated)\">\n".utf8)
    }

    private static let labelsText: [UInt8] = {
        var out: [UInt8] = []
        joined(FixtureField.labels, delimiter: UInt8(ascii: "|"), into: &out)
        return out
    }()

    private static let keysText: [UInt8] = {
        var out: [UInt8] = []
        joined(FixtureField.keys, delimiter: UInt8(ascii: "|"), into: &out)
        return out
    }()

    private static let openTags: [[UInt8]] = FixtureField.elementNames.map { Array("<\($0)>".utf8) }
    private static let closeTags: [[UInt8]] = FixtureField.elementNames.map { Array("</\($0)>".utf8) }

    private static func joined(_ items: [String], delimiter: UInt8, into out: inout [UInt8]) {
        for (i, item) in items.enumerated() {
            if i > 0 { out.append(delimiter) }
            FixtureXMLText.escaped(item, into: &out)
        }
    }

    /// One record in the writer's format.
    func write(_ rec: FixtureRecord) throws {
        let (format, shape) = (self.format, self.shape)
        if format == .resoJSON { return try writeResoJSON(rec) }
        try emit { out in
            switch format {
            case .triples:
                if shape == .header {
                    out.append(contentsOf: "  <listing><values>".utf8)
                } else {
                    out.append(contentsOf: "  <listing>\n    <labels>".utf8)
                    out.append(contentsOf: FixtureWriter.labelsText)
                    out.append(contentsOf: "</labels>\n    <keys>".utf8)
                    out.append(contentsOf: FixtureWriter.keysText)
                    out.append(contentsOf: "</keys>\n    <values>".utf8)
                }
                FixtureWriter.row(rec, delimiter: UInt8(ascii: "|"), cdata: true, into: &out)
                out.append(contentsOf: (shape == .header ? "</values></listing>\n" : "</values>\n  </listing>\n").utf8)
            case .retsCompact:
                out.append(contentsOf: "<DATA>\t".utf8)
                FixtureWriter.row(rec, delimiter: 9, cdata: false, into: &out)
                out.append(contentsOf: "\t</DATA>\n".utf8)
            case .xml:
                out.append(contentsOf: "  <listing>".utf8)
                for i in 0..<FixtureField.count {
                    let field = FixtureField(rawValue: i)!
                    if rec.spans[i].isEmpty && field != .mlsNumber { continue }
                    out.append(contentsOf: FixtureWriter.openTags[i])
                    FixtureWriter.value(rec, field, split: nil, cdata: true, into: &out)
                    out.append(contentsOf: FixtureWriter.closeTags[i])
                }
                out.append(contentsOf: "</listing>\n".utf8)
            case .syndication:
                FixtureSyndication.write(rec, into: &out)
            case .resoJSON:
                break
            }
        }
    }

    /// The values joined by the delimiter, with the record's count dirt applied.
    private static func row(_ rec: FixtureRecord, delimiter: UInt8, cdata: Bool, into out: inout [UInt8]) {
        var first = true
        for i in 0..<FixtureField.count {
            let field = FixtureField(rawValue: i)!
            if field == rec.skippedField { continue }
            if !first { out.append(delimiter) }
            first = false
            value(rec, field, split: field == rec.splitField ? delimiter : nil, cdata: cdata, into: &out)
        }
    }

    private static func value(_ rec: FixtureRecord, _ field: FixtureField, split: UInt8?, cdata: Bool,
                              into out: inout [UInt8]) {
        let span = rec.spans[field.rawValue]
        if cdata && rec.cdataRemarks && field == .publicRemarks {
            FixtureXMLText.cdata(rec.bytes, span, split: split, into: &out)
        } else {
            FixtureXMLText.escaped(rec.bytes, span, quotes: rec.quoteEntities, split: split, into: &out)
        }
    }
}
