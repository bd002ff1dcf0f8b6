/// Writes text as YAML scalars that mlsfeed's config reader (and other YAML readers) read back unchanged.
enum YAMLScalar {
    /// `text` plain when that is safe in a flow mapping (`{ from: X }`) and reads back as the same string,
    /// else double-quoted. A value (not a key) also has `${` written `$${`, which the config reader's
    /// environment expansion turns back into `${`.
    static func render(_ text: String, isKey: Bool = false) -> String {
        if isPlain(text) { return text }
        var out = "\""
        var previous: Character?
        for scalar in text.unicodeScalars {
            let character = Character(scalar)
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "{" where !isKey && previous == "$": out += "${"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
                    out += "\\x" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            previous = character
        }
        return out + "\""
    }

    /// Words YAML 1.1 readers take for booleans or null.
    private static let reserved: Set<String> = ["y", "n", "yes", "no", "true", "false", "on", "off", "null", "~"]

    /// Letters, digits and `_` first; then also space and `. / ( ) & ' + -`; no trailing space; not a boolean,
    /// null or number word.
    private static func isPlain(_ text: String) -> Bool {
        guard let first = text.utf8.first, let last = text.utf8.last, isWordByte(first), last != 0x20 else {
            return false
        }
        guard text.utf8.allSatisfy({ isWordByte($0) || " ./()&'+-".utf8.contains($0) }) else { return false }
        if reserved.contains(text.lowercased()) { return false }
        return Double(text) == nil && Int(text) == nil
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F
    }
}

extension String {
    /// The string with `0`s in front up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
