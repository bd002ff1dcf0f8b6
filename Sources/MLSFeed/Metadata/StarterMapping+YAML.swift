extension StarterMapping {
    /// The widest line written.
    static let width = 120

    /// The mapping as a YAML file: a header saying where it came from, `entity`, `fields` in column order,
    /// the embedded agents, offices, media and open houses, the rooms and unit types, and a comment listing the
    /// fields that go to `extra`. Deterministic: the same metadata gives the same bytes.
    package var yaml: String {
        var lines = header()
        lines.append("entity: \(entity.rawValue)")
        if keyIsPlaceholder {
            lines += Self.comment("TODO: no field of the metadata is a key mapping init knows: name the feed's "
                                  + "\(entity.keyColumn) in its from: (the mapping is refused until then).")
        }
        lines.append("fields:")
        lines += render(fields, indent: 2)
        for kind in [Entity.agent, .office, .media, .openHouse] {
            let entries = embedded.filter { $0.entity == kind }
            guard !entries.isEmpty else { continue }
            lines += Self.comment(embeddedComment(kind))
            lines.append(kind.embeddedKey + ":")
            for entry in entries {
                if let each = entry.each {
                    lines.append("  - each: " + YAMLScalar.render(each))
                    if let link = entry.link { lines.append("    link: \(link)") }
                } else {
                    lines.append("  - link: \(entry.link ?? "")")
                }
                lines.append("    fields:")
                lines += render(entry.fields, indent: 6)
            }
        }
        if rooms != nil || unitTypes != nil {
            lines += Self.comment("Each room's and unit type's object, as sent ($expand=Rooms,UnitTypes), in the "
                                  + "listing's rooms and unit_types columns.")
            if let rooms { lines.append("rooms: " + YAMLScalar.render(rooms)) }
            if let unitTypes { lines.append("unit_types: " + YAMLScalar.render(unitTypes)) }
        }
        if !multiValue.isEmpty {
            lines += Self.comment("Fields that hold lists: kept in extra as arrays, also when sent as one "
                                  + "comma-joined text.")
            lines += Self.flowList("multi_value", multiValue)
        }
        lines += footer()
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Comments

    /// The comment above the `kind` entries.
    private func embeddedComment(_ kind: Entity) -> String {
        switch kind {
        case .agent:
            let from = document.format.isRETS ? "from the listing's own fields"
                : "from an expanded navigation property ($expand=ListAgent) or the listing's own fields "
                    + "(ListAgentMlsId, ...), the first that holds a value"
            return "The agents each listing names become agent rows, \(from); the listing's link column gets the "
                + "agent's id when the listing has none."
        case .office:
            let from = document.format.isRETS ? "from the listing's own fields"
                : "from an expanded navigation property ($expand=ListOffice) or the listing's own fields "
                    + "(ListOfficeMlsId, ...), the first that holds a value"
            return "The offices each listing names become office rows, \(from); the listing's link column gets the "
                + "office's id when the listing has none."
        case .media:
            return "The listing's photos ($expand=Media): one media row each, keyed by MediaKey (else "
                + "<listing_id>/<order>); the listing's copy is the whole truth about them."
        default:
            return "The listing's open houses ($expand=OpenHouse): one open_houses row each, keyed by OpenHouseKey "
                + "(else <listing_id>/<start time>)."
        }
    }

    private func header() -> [String] {
        let file = Self.baseName(document.file)
        var origin: String
        if document.format.isRETS {
            origin = "\(file), a \(document.format.rawValue) reply: METADATA-TABLE \(table.provenance)"
            if !document.lookupFiles.isEmpty {
                origin += "; lookups from " + document.lookupFiles.map(Self.baseName).joined(separator: ", ")
            }
        } else {
            let version = document.provenance.isEmpty ? "" : " " + document.provenance
            origin = "\(file), \(document.format.rawValue)\(version): EntityType "
                + (table.qualifiedNames.first ?? table.resource)
        }
        var lines = Self.comment("Starter mapping written by `mlsfeed mapping init` from \(origin).")
        lines += Self.comment("Fields are placed by their standard names. Review the types, bounds, required fields "
                              + "and enum values; every field not placed goes to `extra` as sent (listed at the end).")
        if !missingLookups.isEmpty {
            lines += Self.comment("Lookups the metadata does not hold, so their fields are text (or take the RESO "
                                  + "values): \(missingLookups.joined(separator: ", ")); "
                                  + "give them with --lookups FILE.")
        }
        let all = fields + embedded.flatMap(\.fields)
        if all.contains(where: { $0.type == .timestamp }) {
            lines += Self.comment("It has timestamp fields: the pipeline needs source.time_zone for times sent "
                                  + "without a zone.")
        }
        return lines
    }

    private func footer() -> [String] {
        var lines: [String] = []
        if !missing.isEmpty {
            lines += Self.comment("No field of the metadata fills: \(missing.joined(separator: ", ")).")
        }
        guard !unplaced.isEmpty else { return lines }
        lines.append("# Not placed (\(unplaced.count)): these fields go to `extra` as sent.")
        let pad = min(32, unplaced.map(\.name.count).max() ?? 0) + 2
        for field in unplaced {
            let name = "#   " + (field.name.count + 2 > pad ? field.name + "  " : field.name.padding(to: pad))
            if name.count + field.type.count <= Self.width {
                lines.append(name + field.type)
            } else {
                lines.append("#   " + field.name)
                lines += Self.comment(field.type, prefix: "#       ")
            }
        }
        return lines
    }

    // MARK: - Fields

    private func render(_ fields: [Field], indent: Int) -> [String] {
        let margin = String(repeating: " ", count: indent)
        let keyWidth = (fields.filter { $0.type != .enum }.map(\.column.count).max() ?? 0) + 2
        var lines: [String] = []
        for field in fields {
            let flow = flowLine(field)
            let line = margin + (field.column + ":").padding(to: keyWidth) + flow
            if field.type != .enum && line.count <= Self.width {
                lines.append(line)
                continue
            }
            let inner = margin + "  "
            lines.append(margin + field.column + ":")
            lines.append(inner + "from: " + from(field))
            lines.append(inner + "type: " + field.type.rawValue)
            if field.required { lines.append(inner + "required: true") }
            if let minimum = field.minimum { lines.append(inner + "min: " + Self.number(minimum)) }
            if let maximum = field.maximum { lines.append(inner + "max: " + Self.number(maximum)) }
            guard field.type == .enum else { continue }
            if !field.notRESO.isEmpty, let resoName = field.resoName {
                lines += Self.comment("Not RESO \(resoName) values, kept as they are: "
                                      + field.notRESO.joined(separator: ", ") + ".", prefix: inner + "# ")
            }
            for note in field.leftOut {
                lines += Self.comment("Left out \(note).", prefix: inner + "# ")
            }
            lines.append(inner + "values:")
            for (word, canonical) in field.values {
                lines.append(inner + "  " + YAMLScalar.render(word, isKey: true) + ": " + YAMLScalar.render(canonical))
            }
        }
        return lines
    }

    private func flowLine(_ field: Field) -> String {
        var parts = ["from: " + from(field), "type: " + field.type.rawValue]
        if field.required { parts.append("required: true") }
        if let minimum = field.minimum { parts.append("min: " + Self.number(minimum)) }
        if let maximum = field.maximum { parts.append("max: " + Self.number(maximum)) }
        return "{ " + parts.joined(separator: ", ") + " }"
    }

    private func from(_ field: Field) -> String {
        let sources = field.sources.map { YAMLScalar.render($0) }
        return sources.count == 1 ? sources[0] : "[" + sources.joined(separator: ", ") + "]"
    }

    // MARK: - Text

    /// `key: [a, b, ...]`, broken after a comma where a line would pass `width`.
    static func flowList(_ key: String, _ items: [String]) -> [String] {
        var lines: [String] = []
        var line = key + ": ["
        for (index, item) in items.enumerated() {
            let text = YAMLScalar.render(item) + (index == items.count - 1 ? "]" : ",")
            if line.count > key.count + 3 && line.count + 1 + text.count > width {
                lines.append(line)
                line = String(repeating: " ", count: key.count + 3) + text
            } else {
                line += (line.hasSuffix("[") ? "" : " ") + text
            }
        }
        lines.append(line)
        return lines
    }

    /// `text` as comment lines of at most `width` columns, broken between words.
    static func comment(_ text: String, prefix: String = "# ") -> [String] {
        var lines: [String] = []
        var line = prefix
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.count > prefix.count && line.count + 1 + word.count > width {
                lines.append(line)
                line = prefix
            }
            line += (line.count > prefix.count ? " " : "") + word
        }
        lines.append(line)
        return lines
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// The last component of `path` (how the header and the warnings name a file).
    static func baseName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

extension String {
    /// The string followed by spaces up to `width` characters (unchanged when longer).
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
