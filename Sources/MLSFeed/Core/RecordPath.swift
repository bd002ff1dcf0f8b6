/// Where a mapping field finds its value inside a structured record (nested XML, JSON), relative to the record
/// element (or to a repeated element, for `embedded_agents`).
///
/// Syntax: steps joined by `/`; a step is a name (`City`, matching that local name in any namespace; `*` any
/// element), a prefixed
/// name (`commons:City`, matching the namespace URI the pipeline gives the prefix), optionally with one attribute
/// predicate (`Phone[@PhoneType='Telephone']`); the last part may be an attribute (`@ID`, `Office/@ID`) or `name()`,
/// the local name of the element reached (`../name()`); `.` is the element itself. A path may begin with `..`
/// steps, each one element up: from a repeated element to its record (`../../Offices/Office/Name`), and from the
/// record to the elements around it, of which only the name and attributes are kept (`../name()`, `../@version`).
/// A plain name also matches an attribute of that name when no child element has it (the flat-record shape
/// `<location lat=".." lon=".."/>`).
package struct RecordPath: Sendable, Hashable, CustomStringConvertible {
    /// One element step.
    package struct Step: Sendable, Hashable {
        package var name: String
        /// The namespace prefix, resolved through `format.namespaces`.
        package var prefix: String?
        /// `[@attribute='value']`: only elements whose attribute has that value.
        package var predicate: Predicate?
    }

    /// An attribute test on a step.
    package struct Predicate: Sendable, Hashable {
        package var attribute: String
        package var value: String
    }

    /// The element steps, outermost first (empty for `.` and for an attribute of the element itself).
    package var steps: [Step]
    /// The attribute read at the end of the steps, if the path ends in `@name`.
    package var attribute: String?
    /// How many `..` steps the path begins with: it starts that many elements above where it is read from.
    package var up = 0
    /// The path ends in `name()`: it reads the local name of the element it reaches, not its text.
    package var readsName = false
    /// The path as written.
    package var description: String

    /// True for a path that names one child (or attribute) of the record and nothing more: the shape of a flat key.
    package var isPlainName: Bool {
        steps.count == 1 && attribute == nil && up == 0 && !readsName && steps[0].prefix == nil
            && steps[0].predicate == nil
    }

    /// Whether the path, read from an element `depth` elements below its record (0: the record itself), leaves the
    /// record: it then reaches an element around the record, of which only `name()` and attributes can be read.
    package func leavesRecord(depth: Int) -> Bool { up > depth }

    /// The prefixes the path uses.
    package var prefixes: [String] { steps.compactMap(\.prefix) }

    /// Parses `text`; a mistake is described in a sentence that names the part at fault.
    package init(parsing text: String) throws(RecordPathError) {
        description = text
        steps = []
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw RecordPathError("a path cannot be empty") }
        if trimmed == "." { return }
        var parts = Self.split(trimmed)
        if let last = parts.last, last.hasPrefix("@") {
            let name = String(last.dropFirst())
            guard Self.isName(name) else { throw RecordPathError("\(quoted(last)) is not an attribute name") }
            attribute = name
            parts.removeLast()
        } else if parts.last == "name()" {
            readsName = true
            parts.removeLast()
        }
        while parts.first == ".." {
            up += 1
            parts.removeFirst()
        }
        for part in parts {
            if part == "." { continue }
            guard part != ".." else { throw RecordPathError("\(quoted(text)): \"..\" can only begin a path") }
            guard part != "name()" else { throw RecordPathError("\(quoted(text)): name() can only end a path") }
            guard !part.isEmpty else { throw RecordPathError("\(quoted(text)) has an empty step (\"//\" or a "
                                                             + "leading or trailing \"/\")") }
            guard !part.hasPrefix("@") else {
                throw RecordPathError("\(quoted(part)): an attribute can only end a path")
            }
            steps.append(try Self.step(part))
        }
    }

    /// Splits on `/` outside predicates (a predicate value may hold a slash).
    private static func split(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil }
                current.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                current.append(character)
            } else if character == "/" {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }

    private static func step(_ part: String) throws(RecordPathError) -> Step {
        var head = Substring(part)
        var predicate: Predicate?
        if let open = part.firstIndex(of: "[") {
            guard part.hasSuffix("]") else { throw RecordPathError("\(quoted(part)): a predicate ends with \"]\"") }
            head = part[..<open]
            let inside = part[part.index(after: open)..<part.index(before: part.endIndex)]
            guard inside.hasPrefix("@"), let equals = inside.firstIndex(of: "=") else {
                throw RecordPathError("\(quoted(part)): a predicate reads [@attribute='value']")
            }
            let attribute = String(inside[inside.index(after: inside.startIndex)..<equals])
                .trimmingCharacters(in: .whitespaces)
            var value = inside[inside.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard isName(attribute), value.count >= 2, let first = value.first, first == "'" || first == "\"",
                  value.last == first else {
                throw RecordPathError("\(quoted(part)): a predicate reads [@attribute='value']")
            }
            value = String(value.dropFirst().dropLast())
            predicate = Predicate(attribute: attribute, value: value)
        }
        var prefix: String?
        var name = String(head)
        if let colon = head.firstIndex(of: ":") {
            prefix = String(head[..<colon])
            name = String(head[head.index(after: colon)...])
            guard isName(prefix!) else { throw RecordPathError("\(quoted(part)): \(quoted(prefix!)) is not a prefix") }
        }
        guard name == "*" || isName(name) else { throw RecordPathError("\(quoted(part)) is not an element name") }
        return Step(name: name, prefix: prefix, predicate: predicate)
    }

    /// An XML name without a colon (letters, digits, `_`, `-`, `.`; not starting with a digit, `-` or `.`).
    private static func isName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, !text.isEmpty else { return false }
        if first.properties.numericType != nil || first == "-" || first == "." { return false }
        return text.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || $0.properties.numericType != nil || "_-.".unicodeScalars.contains($0)
        }
    }
}

/// A path in a mapping that cannot be read.
package struct RecordPathError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) { self.message = message }

    package var description: String { message }
}
