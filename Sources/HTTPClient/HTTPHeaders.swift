/// Response header fields in the order received; names compare case-insensitively and may repeat.
package struct HTTPHeaders: Sendable, Hashable {
    /// Every field as received (name as the server spelled it, value trimmed).
    package private(set) var fields: [(name: String, value: String)]

    package init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    /// Every value of the fields named `name` (any case), in order.
    package func values(_ name: String) -> [String] {
        let folded = name.lowercased()
        return fields.filter { $0.name.lowercased() == folded }.map(\.value)
    }

    /// The first value of the field named `name` (any case), if any.
    package subscript(_ name: String) -> String? {
        let folded = name.lowercased()
        return fields.first { $0.name.lowercased() == folded }?.value
    }

    /// Adds a field from one raw header line (`Name: value`); lines without a colon are ignored.
    mutating func append(line: String) {
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].trimmingCharacters(in: " \t")
        let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t\r\n")
        guard !name.isEmpty else { return }
        fields.append((name, value))
    }

    package static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count && zip(lhs.fields, rhs.fields).allSatisfy { $0 == $1 }
    }

    package func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing characters from `set`.
    fileprivate func trimmingCharacters(in set: String) -> String {
        var slice = self[...]
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
