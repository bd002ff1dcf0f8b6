import Foundation

/// What a statement refused with `insufficient_privilege` (42501) needed, from the server's message (`permission
/// denied for table ingest_runs`, `must be owner of table listings`, `permission denied for database "mls"`) and
/// the statement's text: `INSERT on table ingest_runs`, `ownership of table listings`, `CONNECT on database mls`.
/// Messages in another language than English give nil.
enum PrivilegeNeeded {
    /// The kinds of object a permission message names, longest first.
    private static let kinds = ["materialized view", "foreign table", "large object", "procedure", "tablespace",
                                "function", "sequence", "database", "routine", "schema", "table", "view", "type"]

    /// `INSERT on table ingest_runs`; `statement` is empty for a connection attempt.
    static func describe(message: String, statement: String) -> String? {
        if let (kind, name) = object(in: message, after: "must be owner of ") { return "ownership of \(kind) \(name)" }
        if let (_, name) = object(in: message, after: "permission denied to create temporary tables in ") {
            return "TEMPORARY on database \(name)"
        }
        guard let (kind, name) = object(in: message, after: "permission denied for ") else { return nil }
        return "\(needed(kind: kind, name: name, statement: statement)) on \(kind) \(name)"
    }

    /// The kind and name of the object after `prefix` in `message` (quotes around the name removed).
    private static func object(in message: String, after prefix: String) -> (String, String)? {
        guard let start = message.range(of: prefix) else { return nil }
        let rest = message[start.upperBound...]
        for kind in kinds where rest.hasPrefix(kind + " ") {
            var name = rest.dropFirst(kind.count + 1).prefix { $0 != "\n" }
            if name.count >= 2 && name.first == "\"" && name.last == "\"" { name = name.dropFirst().dropLast() }
            return name.isEmpty ? nil : (kind, String(name))
        }
        return nil
    }

    /// The privilege a statement needs on an object of `kind`.
    private static func needed(kind: String, name: String, statement: String) -> String {
        let sql = statement.uppercased()
        switch kind {
        case "database":
            if statement.isEmpty { return "CONNECT" }
            return matches(#"\bCREATE\s+(TEMP|TEMPORARY)\b"#, statement) ? "TEMPORARY" : "CREATE"
        case "schema":
            return matches(#"^\s*(CREATE|ALTER)\b"#, statement) ? "CREATE" : "USAGE"
        case "sequence", "type":
            return "USAGE"
        case "function", "procedure", "routine":
            return "EXECUTE"
        case "tablespace":
            return "CREATE"
        default:
            // A table or view: the write the statement makes on it, else reading it.
            let table = #"(ONLY\s+)?("?\w+"?\.)?"?"# + NSRegularExpression.escapedPattern(for: name) + #""?(\s|\(|;|$)"#
            var privileges: [String] = []
            if matches(#"\bINSERT\s+INTO\s+"# + table, statement) {
                privileges.append("INSERT")
                if sql.contains("DO UPDATE") { privileges.append("UPDATE") }
            }
            if matches(#"\bUPDATE\s+"# + table, statement) { privileges.append("UPDATE") }
            if matches(#"\bDELETE\s+FROM\s+"# + table, statement) { privileges.append("DELETE") }
            if matches(#"\bTRUNCATE\s+(TABLE\s+)?"# + table, statement) { privileges.append("TRUNCATE") }
            if matches(#"^\s*COPY\s+"# + table + #"[^;]*\bFROM\s+STDIN"#, statement) { privileges.append("INSERT") }
            return privileges.isEmpty ? "SELECT" : privileges.joined(separator: " and ")
        }
    }

    /// Whether `pattern` (case-insensitive) matches somewhere in `text`.
    private static func matches(_ pattern: String, _ text: String) -> Bool {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
