/// PostgreSQL array literals (`{"a","b"}`) for `text[]` values sent as parameters or COPY fields.
enum TextArray {
    /// Every element double-quoted, with `"` and `\` backslash-escaped.
    static func literal(_ elements: [String]) -> String {
        "{" + elements.map { element in
            var quoted = "\""
            for character in element {
                if character == "\"" || character == "\\" { quoted.append("\\") }
                quoted.append(character)
            }
            return quoted + "\""
        }.joined(separator: ",") + "}"
    }
}
