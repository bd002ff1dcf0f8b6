import XMLStream

/// Reads a RESO `$metadata` document (OData CSDL XML): each `Schema`'s `EntityType`s (their `Property` and
/// `NavigationProperty` elements) and `EnumType`s (their `Member`s), with the `RESO.OData.Metadata.StandardName`
/// annotations that give display names. Names match by local name, so OData v4 and v3 namespaces both read.
///
/// Types are resolved once the whole document is read: an enum type may come after the entity that uses it.
final class EDMXCollector: MetadataCollector {
    /// An enum member as read, before it becomes a lookup entry.
    private struct Member {
        var name: String
        var standardName: String?
        var description: String?
    }

    /// An enum type as read.
    private struct EnumType {
        var names: [String]
        var isFlags: Bool
        var members: [Member] = []
    }

    /// A property as read: its type is resolved against the enum types at the end.
    private struct PendingField {
        var name: String
        var type: String
        var standardName: String?
        var lookupName: String?
    }

    /// An entity type as read.
    private struct EntityType {
        var table: MetadataTable
        var fields: [PendingField] = []
    }

    /// Where an `Annotation` being read belongs.
    private enum AnnotationTarget {
        case field, member
    }

    private let file: String
    private let names: (schema: XMLName, entityType: XMLName, property: XMLName, navigation: XMLName,
                        enumType: XMLName, member: XMLName, annotation: XMLName, string: XMLName, key: XMLName,
                        propertyRef: XMLName)
    private var version: String?
    private var namespace = ""
    private var alias: String?
    private var entity: EntityType?
    private var entities: [EntityType] = []
    private var enumType: EnumType?
    private var enums: [EnumType] = []
    private var open: [XMLName] = []
    /// The annotation being read (its term and target), waiting for an element-form `<String>` value.
    private var annotation: (term: String, target: AnnotationTarget)?
    private var capturingString = false
    private var items = 0

    init(file: String, parser: XMLPushParser) {
        self.file = file
        names = (parser.name("Schema"), parser.name("EntityType"), parser.name("Property"),
                 parser.name("NavigationProperty"), parser.name("EnumType"), parser.name("Member"),
                 parser.name("Annotation"), parser.name("String"), parser.name("Key"), parser.name("PropertyRef"))
    }

    func startElement(_ name: XMLName, parser: XMLPushParser) throws {
        defer { open.append(name) }
        let parent = open.last
        if open.isEmpty {
            version = parser.attribute("Version")
        } else if name == names.schema {
            namespace = parser.attribute("Namespace") ?? ""
            alias = parser.attribute("Alias")
        } else if name == names.entityType && parent == names.schema {
            var table = MetadataTable(resource: try required("Name", of: name, parser))
            table.qualifiedNames = qualified(table.resource)
            entity = EntityType(table: table)
        } else if name == names.property && parent == names.entityType, entity != nil {
            try count(parser)
            let fieldName = try required("Name", of: name, parser)
            entity?.fields.append(PendingField(name: fieldName, type: parser.attribute("Type") ?? ""))
        } else if name == names.propertyRef && parent == names.key && open.dropLast().last == names.entityType,
                  entity != nil {
            entity?.table.keyFields.append(try required("Name", of: name, parser))
        } else if name == names.navigation && parent == names.entityType, entity != nil {
            try count(parser)
            entity?.table.navigations.append(.init(name: try required("Name", of: name, parser),
                                                   typeLabel: parser.attribute("Type") ?? ""))
        } else if name == names.enumType && parent == names.schema {
            let enumName = try required("Name", of: name, parser)
            enumType = EnumType(names: qualified(enumName), isFlags: parser.attribute("IsFlags") == "true")
        } else if name == names.member && parent == names.enumType, enumType != nil {
            try count(parser)
            enumType?.members.append(Member(name: try required("Name", of: name, parser)))
        } else if name == names.annotation, let target = annotationTarget(parent: parent) {
            let term = parser.attribute("Term") ?? ""
            if let value = parser.attribute("String") {
                record(term: term, value: value, target: target)
            } else {
                annotation = (term, target)
            }
        } else if name == names.string && parent == names.annotation && annotation != nil {
            capturingString = true
            parser.clearText()
            parser.capturesText = true
        }
    }

    func endElement(_ name: XMLName, parser: XMLPushParser) throws {
        open.removeLast()
        if name == names.string && capturingString {
            capturingString = false
            parser.capturesText = false
            if let annotation {
                record(term: annotation.term, value: String(decoding: parser.text, as: UTF8.self),
                       target: annotation.target)
            }
            parser.clearText()
        } else if name == names.annotation {
            annotation = nil
        } else if name == names.entityType && open.last == names.schema, let done = entity {
            entities.append(done)
            entity = nil
        } else if name == names.enumType && open.last == names.schema, let done = enumType {
            enums.append(done)
            enumType = nil
        }
    }

    func finish() throws -> MetadataDocument {
        var document = MetadataDocument(file: file, format: .edmx)
        document.provenance = version.map { "Version=\($0)" } ?? ""
        var flags = Set<String>()
        for type in enums {
            let entries = type.members.map { member in
                MetadataLookup.Entry(canonical: member.name,
                                     words: [member.name, member.standardName ?? Self.label(member.description)]
                                         .compactMap { $0 })
            }
            let lookup = MetadataLookup(name: type.names[0].split(separator: ".").last.map(String.init) ?? "",
                                        entries: entries)
            for name in type.names {
                document.lookups[name] = lookup
                if type.isFlags { flags.insert(name) }
            }
        }
        document.tables = entities.map { type in
            var table = type.table
            table.fields = type.fields.map { resolve($0, lookups: document.lookups, flags: flags) }
            return table
        }
        return document
    }

    // MARK: - Helpers

    private func resolve(_ field: PendingField, lookups: [String: MetadataLookup], flags: Set<String>)
        -> MetadataField {
        var type = field.type
        var multi = false
        if type.hasPrefix("Collection(") && type.hasSuffix(")") {
            type = String(type.dropFirst(11).dropLast())
            multi = true
        }
        var result = MetadataField(name: field.name, displayName: field.standardName, kind: .other,
                                   typeLabel: field.type, lookupName: field.lookupName, isMultiValued: multi)
        // An enum type, or (RESO Data Dictionary 2.0) a string whose `LookupName` annotation names an enum type.
        let lookupKey = lookups[type] != nil ? type
            : field.lookupName.flatMap { name in lookups.keys.sorted().first { lookups[$0]?.name == name } }
        if let lookupKey, let lookup = lookups[lookupKey] {
            result.kind = .text
            result.lookup = lookupKey
            result.lookupName = lookup.name
            result.isMultiValued = multi || flags.contains(lookupKey)
            if lookupKey != type { result.typeLabel += ", lookup \(lookup.name)" }
            return result
        }
        switch type {
        case "Edm.String", "Edm.Guid": result.kind = .text
        case "Edm.Int16", "Edm.Int32", "Edm.Int64", "Edm.Byte", "Edm.SByte": result.kind = .integer
        case "Edm.Decimal", "Edm.Double", "Edm.Single": result.kind = .decimal
        case "Edm.Date": result.kind = .date
        case "Edm.DateTimeOffset", "Edm.DateTime": result.kind = .timestamp
        case "Edm.Boolean": result.kind = .boolean
        default: result.kind = .other
        }
        if let lookupName = field.lookupName { result.typeLabel += ", lookup \(lookupName)" }
        return result
    }

    /// A `Core.Description` short enough to be a display name (`Active Under Contract`), not a definition.
    private static func label(_ description: String?) -> String? {
        guard let description, description.count <= 40,
              !description.contains(where: { ".;:!?\n".contains($0) }) else { return nil }
        return description
    }

    private func record(term: String, value: String, target: AnnotationTarget) {
        let value = DelimitedText.trimmed(value)
        guard !value.isEmpty else { return }
        let isStandardName = term.hasSuffix(".StandardName")
        let isDescription = term == "Core.Description" || term.hasSuffix(".Core.V1.Description")
        switch target {
        case .field:
            guard var field = entity?.fields.popLast() else { return }
            if isStandardName { field.standardName = value }
            if term.hasSuffix(".LookupName") { field.lookupName = value }
            entity?.fields.append(field)
        case .member:
            guard var member = enumType?.members.popLast() else { return }
            if isStandardName { member.standardName = value }
            if isDescription { member.description = value }
            enumType?.members.append(member)
        }
    }

    /// What the annotation inside `parent` annotates, if it is something kept.
    private func annotationTarget(parent: XMLName?) -> AnnotationTarget? {
        guard let parent, open.count >= 2 else { return nil }
        let grandparent = open[open.count - 2]
        if parent == names.property && grandparent == names.entityType && entity != nil { return .field }
        if parent == names.member && grandparent == names.enumType && enumType != nil { return .member }
        return nil
    }

    private func qualified(_ name: String) -> [String] {
        [namespace.isEmpty ? name : "\(namespace).\(name)"] + (alias.map { ["\($0).\(name)"] } ?? [])
    }

    private func required(_ attribute: String, of element: XMLName, _ parser: XMLPushParser) throws -> String {
        guard let value = parser.attribute(attribute), !value.isEmpty else {
            throw InputError("\(element) without a \(attribute) attribute", at: position(parser))
        }
        return value
    }

    private func count(_ parser: XMLPushParser) throws {
        items += 1
        guard items <= MetadataReader.maxItems else {
            throw InputError("more than \(MetadataReader.maxItems) properties and enum members: not a metadata "
                             + "document mlsfeed reads", at: position(parser))
        }
    }

    private func position(_ parser: XMLPushParser) -> SourcePosition {
        let (line, column) = parser.startTagPosition
        return SourcePosition(file: file, line: line, column: column)
    }
}
