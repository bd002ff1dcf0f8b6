/// The cluster's password file in libpq's pgpass format (`host:port:database:user:password`), handed to libpq
/// with the conninfo keyword `passfile=`, so the password itself never appears in a connection string.
enum PasswordFile {
    /// The superuser the file holds a password for.
    static let user = "postgres"

    /// A new random password: 48 hexadecimal digits (192 bits from the system's secure generator).
    static func generatePassword() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        var password = ""
        for _ in 0..<24 {
            let byte = Int(UInt8.random(in: .min ... .max, using: &generator))
            password.append(digits[byte >> 4])
            password.append(digits[byte & 0xf])
        }
        return password
    }

    /// The file's contents: one line for `user` on any host, port and database (the file belongs to one cluster).
    static func contents(password: String) -> String {
        "*:*:*:\(user):\(escaped(password))\n"
    }

    /// The password of the first line for `user` in `contents`, nil when there is none.
    static func password(in contents: String) -> String? {
        for line in contents.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            var fields: [String] = [""]
            var escaping = false
            for character in line {
                if escaping {
                    fields[fields.count - 1].append(character)
                    escaping = false
                } else if character == "\\" {
                    escaping = true
                } else if character == ":" && fields.count < 5 {
                    fields.append("")
                } else {
                    fields[fields.count - 1].append(character)
                }
            }
            if fields.count == 5, fields[3] == user || fields[3] == "*" { return fields[4] }
        }
        return nil
    }

    /// `value` with `\` and `:` escaped by a backslash, as pgpass wants.
    private static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:")
    }
}
