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

    /// Bytes written so far (flushed or buffered).
    private(set) var size = 0

    func raw(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    func byte(_ b: UInt8) {
        buffer.append(b)
    }

    /// XML text of `text`: `&`, `<`, `>` always escaped (and `"` when `quotes`).
    func escaped(_ text: String, quotes: Bool = true) {
        var rec = FixtureRecord()
        rec.append(text)
        escaped(rec.bytes, 0..<rec.bytes.count, quotes: quotes, split: nil)
    }

    /// XML text of `bytes[span]`; with `split`, one extra delimiter byte is inserted mid-text (count dirt).
    func escaped(_ bytes: [UInt8], _ span: Range<Int>, quotes: Bool, split: UInt8?) {
        let cut = split == nil ? -1 : FixtureWriter.splitPoint(bytes, span)
        var i = span.lowerBound
        while i < span.upperBound {
            if i == cut, let split { buffer.append(split) }
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "&"): buffer.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): buffer.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): buffer.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\"") where quotes: buffer.append(contentsOf: "&quot;".utf8)
            default: buffer.append(b)
            }
            i += 1
        }
        if cut == span.upperBound, let split { buffer.append(split) }
    }

    /// `bytes[span]` as a CDATA section (generated text never contains `]]>`).
    func cdata(_ bytes: [UInt8], _ span: Range<Int>, split: UInt8?) {
        buffer.append(contentsOf: "<![CDATA[".utf8)
        let cut = split == nil ? -1 : FixtureWriter.splitPoint(bytes, span)
        for i in span {
            if i == cut, let split { buffer.append(split) }
            buffer.append(bytes[i])
        }
        if cut == span.upperBound, let split { buffer.append(split) }
        buffer.append(contentsOf: "]]>".utf8)
    }

    /// Where a leaked delimiter goes: before the first space past the middle of the text (or at its end).
    private static func splitPoint(_ bytes: [UInt8], _ span: Range<Int>) -> Int {
        var i = span.lowerBound + span.count / 2
        while i < span.upperBound && bytes[i] != UInt8(ascii: " ") { i += 1 }
        return i
    }

    func flushIfNeeded() throws {
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
