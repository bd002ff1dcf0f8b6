/// Writes rows of a `COPY ... FROM STDIN` in PostgreSQL's text format, buffered.
///
/// Fields are tab-separated; backslash, tab, newline and carriage return are escaped; nil is `\N`.
public final class CopyWriter {
    /// Bytes buffered before they are sent to the server.
    static let bufferLimit = 256 * 1024

    private let pq: LibPQConnection
    private var buffer: [UInt8] = []

    init(_ pq: LibPQConnection) {
        self.pq = pq
        buffer.reserveCapacity(CopyWriter.bufferLimit + 4096)
    }

    /// Appends one row; sends the buffer when it is full.
    public func writeRow(_ fields: [String?]) throws {
        for (index, field) in fields.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: "\t")) }
            guard let field else {
                buffer.append(UInt8(ascii: "\\"))
                buffer.append(UInt8(ascii: "N"))
                continue
            }
            var plain = true
            for byte in field.utf8 where byte == 0x5C || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                plain = false
                break
            }
            if plain {
                buffer.append(contentsOf: field.utf8)
                continue
            }
            for byte in field.utf8 {
                switch byte {
                case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "\t"): buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "t"))
                case UInt8(ascii: "\n"): buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "r"))
                default: buffer.append(byte)
                }
            }
        }
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= CopyWriter.bufferLimit { try flush() }
    }

    /// Sends what is buffered.
    func flush() throws {
        guard !buffer.isEmpty else { return }
        try pq.putCopyData(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
