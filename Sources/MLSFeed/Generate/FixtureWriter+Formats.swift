extension FixtureWriter {
    /// The document start: XML declaration and root element (plus the header lists of a header-once dump).
    func begin(source: String, generated: String, records: Int) {
        raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        switch format {
        case .triples:
            if shape == .header {
                raw("<dump source=\"")
                escaped(source)
                raw("\" generated=\"\(generated)\">\n  <labels>")
                joined(FixtureField.labels, delimiter: UInt8(ascii: "|"))
                raw("</labels>\n  <keys>")
                joined(FixtureField.keys, delimiter: UInt8(ascii: "|"))
                raw("</keys>\n")
            } else {
                raw("<listings source=\"")
                escaped(source)
                raw("\" generated=\"\(generated)\">\n")
            }
        case .retsCompact:
            raw("<RETS ReplyCode=\"0\" ReplyText=\"Success\">\n<COUNT Records=\"\(records)\"/>\n")
            raw("<DELIMITER value=\"09\"/>\n<COLUMNS>\t")
            joined(FixtureField.keys, delimiter: 9)
            raw("\t</COLUMNS>\n")
        case .xml:
            raw("<listings source=\"")
            escaped(source)
            raw("\" generated=\"\(generated)\">\n")
        }
    }

    func end() {
        switch format {
        case .triples: raw(shape == .header ? "</dump>\n" : "</listings>\n")
        case .retsCompact: raw("</RETS>\n")
        case .xml: raw("</listings>\n")
        }
    }

    private func joined(_ items: [String], delimiter: UInt8) {
        for (i, item) in items.enumerated() {
            if i > 0 { byte(delimiter) }
            escaped(item)
        }
    }

    /// One record in the writer's format.
    func write(_ rec: FixtureRecord) throws {
        switch format {
        case .triples:
            if shape == .header {
                raw("  <listing><values>")
                row(rec, delimiter: UInt8(ascii: "|"), cdata: true)
                raw("</values></listing>\n")
            } else {
                raw("  <listing>\n    <labels>")
                joined(FixtureField.labels, delimiter: UInt8(ascii: "|"))
                raw("</labels>\n    <keys>")
                joined(FixtureField.keys, delimiter: UInt8(ascii: "|"))
                raw("</keys>\n    <values>")
                row(rec, delimiter: UInt8(ascii: "|"), cdata: true)
                raw("</values>\n  </listing>\n")
            }
        case .retsCompact:
            raw("<DATA>\t")
            row(rec, delimiter: 9, cdata: false)
            raw("\t</DATA>\n")
        case .xml:
            raw("  <listing>")
            for field in FixtureField.allCases {
                let span = rec.spans[field.rawValue]
                if span.isEmpty && field != .mlsNumber { continue }
                let name = FixtureField.elementNames[field.rawValue]
                raw("<\(name)>")
                value(rec, field, split: nil, cdata: true)
                raw("</\(name)>")
            }
            raw("</listing>\n")
        }
        try flushIfNeeded()
    }

    /// The values joined by the delimiter, with the record's count dirt applied.
    private func row(_ rec: FixtureRecord, delimiter: UInt8, cdata: Bool) {
        var first = true
        for field in FixtureField.allCases where field != rec.skippedField {
            if !first { byte(delimiter) }
            first = false
            value(rec, field, split: field == rec.splitField ? delimiter : nil, cdata: cdata)
        }
    }

    private func value(_ rec: FixtureRecord, _ field: FixtureField, split: UInt8?, cdata: Bool) {
        let span = rec.spans[field.rawValue]
        if cdata && rec.cdataRemarks && field == .publicRemarks {
            self.cdata(rec.bytes, span, split: split)
        } else {
            escaped(rec.bytes, span, quotes: rec.quoteEntities, split: split)
        }
    }
}
