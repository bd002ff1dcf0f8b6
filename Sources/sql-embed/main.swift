#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// `sql-embed TARGET OUTPUT FILE...`: the build tool of the `EmbedSQL` plugin. Writes OUTPUT, a Swift file
// declaring `enum EmbeddedSQL` with every FILE (a `.sql` file of the target) as a string literal of its exact bytes:
// - a file in a folder named `Migrations`, named `NNNN_words.sql`, is the migration of version NNNN named "words"
//   (underscores read as spaces), in `EmbeddedSQL.migrations` in order of version;
// - any other file is `EmbeddedSQL.<name>`, its base name in lower camel case (`search.sql`: `search`).
// A problem prints `file:1:1: error: ...` (as the compiler does, so the build shows it) and exits 1.
// Only the C library: the tool is built before every build of its target, and Foundation would add to that.

/// One `.sql` file of the target.
struct SQLFile {
    /// The path as given.
    let path: String
    /// The path from the target's folder (`Load/Migrations/0001_tables.sql`), for the generated comments.
    let relative: String
    /// The file's bytes, which must be UTF-8.
    let text: String
}

/// Writes `text` to standard error.
func printError(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count) }
}

/// Prints a compiler-style error about `path` and exits 1.
func fail(_ path: String, _ message: String) -> Never {
    printError("\(path):1:1: error: \(message)\n")
    exit(1)
}

/// The bytes of the file at `path`.
func read(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else { fail(path, "cannot open: \(String(cString: strerror(errno)))") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        bytes += buffer[0..<count]
        if count < buffer.count {
            if ferror(file) != 0 { fail(path, "cannot read: \(String(cString: strerror(errno)))") }
            return bytes
        }
    }
}

/// `text` as the body of a Swift multi-line string literal whose value is exactly `text`: backslashes, quotes,
/// carriage returns and other control characters but tab and line feed escaped.
func literal(_ text: String) -> String {
    var out = "\"\"\"\n"
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case "\n", "\t": out.unicodeScalars.append(scalar)
        case _ where scalar.value < 0x20 || scalar.value == 0x7f:
            out += "\\u{" + String(scalar.value, radix: 16) + "}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    // The line break before the closing delimiter is not part of the value.
    return out + "\n\"\"\""
}

/// `words_like-this.sql` as `wordsLikeThis`.
func identifier(_ baseName: String) -> String {
    let words = baseName.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    guard let first = words.first else { return "" }
    return first.lowercased() + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    printError("usage: sql-embed TARGET OUTPUT FILE...\n")
    exit(2)
}
let targetFolder = "/" + arguments[1] + "/"
let output = arguments[2]

var migrations: [(version: Int, name: String, file: SQLFile)] = []
var others: [(name: String, file: SQLFile)] = []
for path in arguments.dropFirst(3) {
    let bytes = read(path)
    let text = String(decoding: bytes, as: UTF8.self)
    guard Array(text.utf8) == bytes else { fail(path, "not UTF-8 text") }
    let relative = path.ranges(of: targetFolder).last.map { String(path[$0.upperBound...]) } ?? path
    let file = SQLFile(path: path, relative: relative, text: text)
    let components = path.split(separator: "/")
    let baseName = String(components.last!.dropLast(".sql".count))
    if components.count >= 2 && components[components.count - 2] == "Migrations" {
        let digits = baseName.prefix(while: \.isNumber)
        let words = baseName.dropFirst(digits.count)
        guard !digits.isEmpty, let version = Int(digits), version > 0, words.hasPrefix("_"), words.count > 1 else {
            fail(path, "a migration's file is named NNNN_what_it_does.sql (its version, then its name)")
        }
        if let other = migrations.first(where: { $0.version == version }) {
            fail(path, "migration \(version) is also \(other.file.relative)")
        }
        migrations.append((version, String(words.dropFirst()).replacing("_", with: " "), file))
    } else {
        let name = identifier(baseName)
        guard let head = name.first, head.isLetter else { fail(path, "the file name must start with a letter") }
        if let other = others.first(where: { $0.name == name }) {
            fail(path, "\(other.file.relative) is also embedded as EmbeddedSQL.\(name); rename one")
        }
        others.append((name, file))
    }
}
migrations.sort { $0.version < $1.version }
others.sort { $0.name < $1.name }

var swift = """
    // Generated by the EmbedSQL plugin (sql-embed) from the target's .sql files at build time: edit those.

    /// The target's `.sql` files, byte for byte.
    enum EmbeddedSQL {
        /// Every migration (a file `Migrations/NNNN_name.sql`), in order of version.
        static let migrations: [(version: Int, name: String, sql: String)] = [

    """
for migration in migrations {
    let name = migration.name.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
    swift += "        // \(migration.file.relative)\n"
    swift += "        (\(migration.version), \"\(name)\", \(literal(migration.file.text))),\n"
}
swift += "    ]\n"
for other in others {
    swift += "\n    /// `\(other.file.relative)`.\n"
    swift += "    static let \(other.name) = \(literal(other.file.text))\n"
}
swift += "}\n"

// Written only when it changes, so that an unchanged output does not recompile the target.
let bytes = Array(swift.utf8)
if let existing = fopen(output, "rb") {
    fclose(existing)
    if read(output) == bytes { exit(0) }
}
guard let file = fopen(output, "wb") else { fail(output, "cannot write: \(String(cString: strerror(errno)))") }
guard fwrite(bytes, 1, bytes.count, file) == bytes.count, fclose(file) == 0 else {
    fail(output, "cannot write: \(String(cString: strerror(errno)))")
}
