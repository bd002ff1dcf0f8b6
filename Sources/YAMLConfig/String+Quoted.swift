extension String {
    /// The text as shown inside error messages: double-quoted, escaped, long values shortened.
    var quotedForMessage: String {
        let limit = 60
        let shown = count > limit ? String(prefix(limit - 3)) + "..." : self
        var result = "\""
        for character in shown {
            switch character {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default: result.append(character)
            }
        }
        return result + "\""
    }
}
