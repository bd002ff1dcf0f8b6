/// Writes rows of a `COPY ... FROM STDIN` in PostgreSQL's text format, buffered.
///
/// Fields are tab-separated; backslash, tab, newline and carriage return are escaped; nil is `\N`.
public final class CopyWriter {
    /// Bytes buffered before they are sent to the server.
    static let bufferLimit = 256 * 1024

    /// Where full buffers go; nil: the rows stay in the buffer (`takeBuffer`), for a queued COPY.
    private let pq: LibPQConnection?
    private var buffer: [UInt8] = []
    private var rowStarted = false
    /// Rows ended so far.
    package private(set) var rows = 0

    init(_ pq: LibPQConnection) {
        self.pq = pq
        buffer.reserveCapacity(CopyWriter.bufferLimit + 4096)
    }

    /// A writer that keeps every row in memory (`takeBuffer`), for a queued COPY.
    init() {
        pq = nil
    }

    /// The rows written, for a writer made with `init()`.
    func takeBuffer() -> [UInt8] {
        defer { buffer = [] }
        return buffer
    }

    /// Appends one row; sends the buffer when it is full.
    public func writeRow(_ fields: [String?]) throws {
        for field in fields { self.field(field) }
        try endRow()
    }

    /// Appends the next field of the row being written (nil is NULL); `endRow` ends the row. Writing a row field
    /// by field spares building an array of strings for it.
    public func field(_ value: String?) {
        guard var value else {
            separate()
            buffer.append(UInt8(ascii: "\\"))
            buffer.append(UInt8(ascii: "N"))
            return
        }
        value.withUTF8 { field(bytes: $0) }
    }

    /// Appends the next field of the row: an integer in decimal, without making a String of it (the ordinals of
    /// text COPYs: deletions, and staged rows that have no binary form).
    package func field(_ value: Int) {
        separate()
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            repeat {
                digits[19 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
    }

    /// Appends the next field of the row as UTF-8 bytes (escaped here, like any text field).
    public func field(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { field(bytes: $0) }
    }

    /// Ends the row begun by `field` calls; sends the buffer when it is full.
    public func endRow() throws {
        buffer.append(UInt8(ascii: "\n"))
        rowStarted = false
        rows += 1
        if pq != nil && buffer.count >= CopyWriter.bufferLimit { try flush() }
    }

    private func separate() {
        if rowStarted { buffer.append(UInt8(ascii: "\t")) }
        rowStarted = true
    }

    package func field(bytes: UnsafeBufferPointer<UInt8>) {
        separate()
        // The bytes between two that need escaping go in whole: a byte at a time, a reject's raw JSON (a backslash
        // for every quote in it) took about 90 instructions a byte.
        var start = 0
        for index in bytes.indices {
            let byte = bytes[index]
            // Most bytes are above carriage return and not a backslash: one test each.
            if byte > 0x0D && byte != 0x5C { continue }
            let escaped: UInt8
            switch byte {
            case UInt8(ascii: "\\"): escaped = UInt8(ascii: "\\")
            case UInt8(ascii: "\t"): escaped = UInt8(ascii: "t")
            case UInt8(ascii: "\n"): escaped = UInt8(ascii: "n")
            case UInt8(ascii: "\r"): escaped = UInt8(ascii: "r")
            default: continue
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
            buffer.append(UInt8(ascii: "\\"))
            buffer.append(escaped)
            start = index + 1
        }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
    }

    /// Sends what is buffered.
    func flush() throws {
        guard let pq, !buffer.isEmpty else { return }
        try pq.putCopyData(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
