import Foundation
import MLSFeed

/// Writes a generated feed: header, one record at a time, trailer, through a reused byte buffer flushed in
/// large chunks with `fwrite`. Paged `reso-json` goes to numbered files in a directory, one page each.
final class FixtureWriter {
    let format: FixtureOptions.Format
    let shape: FixtureOptions.Shape
    /// `reso-json` pages: records per page (nil: one file), and JSON Lines.
    let pageSize: Int?
    let jsonLines: Bool
    /// The file being written (a page inside the output directory when paged).
    private var path: String
    private let directory: String?
    private var file: UnsafeMutablePointer<FILE>?
    private var buffer: [UInt8] = []
    private static let chunk = 1 << 20

    /// Records the whole feed will hold (`@odata.count`), set by `begin`.
    var totalRecords = 0
    /// Pages: how many there will be, the current one (1-based), and records written into it.
    var pageCount = 0
    var page = 0
    var recordsInPage = 0

    init(path: String, format: FixtureOptions.Format, shape: FixtureOptions.Shape, pageSize: Int? = nil,
         jsonLines: Bool = false) throws {
        self.path = path
        self.format = format
        self.shape = shape
        self.pageSize = pageSize
        self.jsonLines = jsonLines
        buffer.reserveCapacity(FixtureWriter.chunk + 65536)
        if pageSize != nil {
            directory = path
            try FixtureWriter.preparePageDirectory(path)
        } else {
            directory = nil
            file = try FixtureWriter.open(path)
        }
    }

    deinit {
        if let file { fclose(file) }
    }

    /// Bytes written so far (flushed), over all files.
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

    /// The file name of page `number`: `page-0001.json`, wider when there are more than 9999 pages.
    func pageName(_ number: Int) -> String {
        let digits = String(number)
        let width = max(4, String(pageCount).count)
        return "page-" + String(repeating: "0", count: max(width - digits.count, 0)) + digits + ".json"
    }

    /// Closes the current page (if any) and starts writing page `page + 1`.
    func openNextPage() throws {
        guard let directory else { preconditionFailure("pages without an output directory") }
        try close()
        page += 1
        recordsInPage = 0
        path = directory + "/" + pageName(page)
        file = try FixtureWriter.open(path)
    }

    private static func open(_ path: String) throws -> UnsafeMutablePointer<FILE> {
        guard let handle = fopen(path, "wb") else {
            throw FixtureGenerator.Failure("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        return handle
    }

    /// Creates the directory of pages, or empties it of the pages of an earlier run (nothing else is touched).
    private static func preparePageDirectory(_ path: String) throws {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw FixtureGenerator.Failure("cannot write pages to \(path): not a directory")
            }
            let names = (try? files.contentsOfDirectory(atPath: path)) ?? []
            for name in names where isPageName(name) {
                try? files.removeItem(atPath: path + "/" + name)
            }
        } else {
            do {
                try files.createDirectory(atPath: path, withIntermediateDirectories: false)
            } catch {
                throw FixtureGenerator.Failure("cannot write pages to \(path): cannot create the directory")
            }
        }
    }

    /// `page-` digits `.json`.
    static func isPageName(_ name: String) -> Bool {
        guard name.hasPrefix("page-") && name.hasSuffix(".json") else { return false }
        let digits = name.dropFirst(5).dropLast(5)
        return !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
    }
}

/// XML text encoding of generated values into a byte buffer.
enum FixtureXMLText {
    /// `text` with `&`, `<`, `>` and `"` escaped.
    static func escaped(_ text: String, into out: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            guard utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 }) else {
                return out.append(contentsOf: utf8)
            }
            let bytes = Array(utf8)
            escaped(bytes, 0..<bytes.count, quotes: true, split: nil, into: &out)
        }
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
