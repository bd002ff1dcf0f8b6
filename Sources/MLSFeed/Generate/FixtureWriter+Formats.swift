extension FixtureWriter {
    /// The document start: XML declaration and root element (plus the header lists of a header-once dump).
    func begin(source: String, generated: String, records: Int) throws {
        let (format, shape) = (self.format, self.shape)
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
            }
        }
    }

    func end() throws {
        let (format, shape) = (self.format, self.shape)
        try emit { out in
            switch format {
            case .triples: out.append(contentsOf: (shape == .header ? "</dump>\n" : "</listings>\n").utf8)
            case .retsCompact: out.append(contentsOf: "</RETS>\n".utf8)
            case .xml: out.append(contentsOf: "</listings>\n".utf8)
            }
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
