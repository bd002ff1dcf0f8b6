import Foundation

/// Writes a generated feed: header, one record at a time, trailer, through a reused byte buffer flushed in
/// large chunks with `fwrite`.
final class FixtureWriter {
    let format: FixtureOptions.Format
    let shape: FixtureOptions.Shape
    private let path: String
    private var file: UnsafeMutablePointer<FILE>?
    private var buffer: [UInt8] = []
    private static let chunk = 1 << 20

    init(path: String, format: FixtureOptions.Format, shape: FixtureOptions.Shape) throws {
        self.path = path
        self.format = format
        self.shape = shape
        guard let handle = fopen(path, "wb") else {
            throw FixtureGenerator.Failure("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        file = handle
        buffer.reserveCapacity(FixtureWriter.chunk + 65536)
    }

    deinit {
        if let file { fclose(file) }
    }

    /// Bytes written so far (flushed).
    private(set) var size = 0

    /// Appends to the buffer through `body` with a single exclusive access (no per-byte access checks).
    func emit(_ body: (inout [UInt8]) -> Void) throws {
        var out: [UInt8] = []
        swap(&out, &buffer)
        body(&out)
        swap(&out, &buffer)
        if buffer.count >= FixtureWriter.chunk { try flush() }
    }

    func flush() throws {
        guard let file, !buffer.isEmpty else { return }
        let written = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == buffer.count else {
            throw FixtureGenerator.Failure("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        size += written
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        try flush()
        if let file {
            self.file = nil
            if fclose(file) != 0 {
                throw FixtureGenerator.Failure("cannot write \(path): \(String(cString: strerror(errno)))")
            }
        }
    }
}

/// XML text encoding of generated values into a byte buffer.
enum FixtureXMLText {
    /// `text` with `&`, `<`, `>` and `"` escaped.
    static func escaped(_ text: String, into out: inout [UInt8]) {
        let bytes = Array(text.utf8)
        escaped(bytes, 0..<bytes.count, quotes: true, split: nil, into: &out)
    }

    /// `bytes[span]` with `&`, `<`, `>` (and `"` when `quotes`) escaped; with `split`, one extra delimiter byte
    /// is inserted mid-text (count-mismatch dirt).
    static func escaped(_ bytes: [UInt8], _ span: Range<Int>, quotes: Bool, split: UInt8?, into out: inout [UInt8]) {
        if let split {
            let cut = splitPoint(bytes, span)
            escaped(bytes, span.lowerBound..<cut, quotes: quotes, split: nil, into: &out)
            out.append(split)
            escaped(bytes, cut..<span.upperBound, quotes: quotes, split: nil, into: &out)
            return
        }
        bytes.withUnsafeBufferPointer { src in
            var run = span.lowerBound
            for i in span {
                let b = src[i]
                guard b == 0x26 || b == 0x3C || b == 0x3E || (quotes && b == 0x22) else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: src[run..<i]))
                run = i + 1
                switch b {
                case 0x26: out.append(contentsOf: "&amp;".utf8)
                case 0x3C: out.append(contentsOf: "&lt;".utf8)
                case 0x3E: out.append(contentsOf: "&gt;".utf8)
                default: out.append(contentsOf: "&quot;".utf8)
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: src[run..<span.upperBound]))
        }
    }

    /// `bytes[span]` as a CDATA section (generated text never contains `]]>`).
    static func cdata(_ bytes: [UInt8], _ span: Range<Int>, split: UInt8?, into out: inout [UInt8]) {
        out.append(contentsOf: "<![CDATA[".utf8)
        if split != nil {
            let cut = splitPoint(bytes, span)
            out.append(contentsOf: bytes[span.lowerBound..<cut])
            if let split { out.append(split) }
            out.append(contentsOf: bytes[cut..<span.upperBound])
        } else {
            out.append(contentsOf: bytes[span])
        }
        out.append(contentsOf: "]]>".utf8)
    }

    /// Where a leaked delimiter goes: before the first space past the middle of the text (or at its end).
    static func splitPoint(_ bytes: [UInt8], _ span: Range<Int>) -> Int {
        var i = span.lowerBound + span.count / 2
        while i < span.upperBound && bytes[i] != UInt8(ascii: " ") { i += 1 }
        return i
    }
}
