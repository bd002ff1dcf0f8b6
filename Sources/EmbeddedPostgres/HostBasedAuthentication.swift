/// The rules of a cluster's `pg_hba.conf`: clusters made by older mlsfeed versions trust every local connection.
enum HostBasedAuthentication {
    /// The method of new clusters, and of every rule that trusted before.
    static let method = "scram-sha-256"

    private static let connectionTypes: Set<Substring> = [
        "local", "host", "hostssl", "hostnossl", "hostgssenc", "hostnogssenc",
    ]

    /// `text` with the method of every rule that says `trust` changed to `scram-sha-256`, everything else kept
    /// as it is (spacing, comments, other rules); nil when no rule trusts.
    static func withoutTrust(_ text: String) -> String? {
        var changed = false
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard let range = trustMethod(in: line) else { return String(line) }
            changed = true
            return String(line[..<range.lowerBound]) + method + String(line[range.upperBound...])
        }
        return changed ? lines.joined(separator: "\n") : nil
    }

    /// The range of `line`'s method field when the line is a rule whose method is `trust`.
    ///
    /// `local DATABASE USER METHOD [OPTIONS]`, `host* DATABASE USER ADDRESS [MASK] METHOD [OPTIONS]`.
    private static func trustMethod(in line: Substring) -> Range<Substring.Index>? {
        let content = line[..<(line.firstIndex(of: "#") ?? line.endIndex)]
        var fields: [Range<Substring.Index>] = []
        var index = content.startIndex
        while index < content.endIndex {
            guard !content[index].isWhitespace else {
                index = content.index(after: index)
                continue
            }
            let start = index
            while index < content.endIndex, !content[index].isWhitespace { index = content.index(after: index) }
            fields.append(start..<index)
        }
        guard let type = fields.first.map({ content[$0] }), connectionTypes.contains(type) else { return nil }
        var position = type == "local" ? 3 : 4
        if type != "local", fields.count > 5, isAddressMask(content[fields[4]]) { position = 5 }
        guard fields.count > position, content[fields[position]] == "trust" else { return nil }
        return fields[position]
    }

    /// Whether `field` is an IP mask (`255.255.255.0`, `ffff:ffff::`) rather than a method name.
    private static func isAddressMask(_ field: Substring) -> Bool {
        (field.contains(".") || field.contains(":")) && field.allSatisfy { $0.isHexDigit || $0 == "." || $0 == ":" }
    }
}
