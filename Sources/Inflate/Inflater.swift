internal import CZlib

/// One zlib inflate stream reading gzip members; the only file that imports CZlib and owns its handle.
///
/// The `z_stream` is allocated once and freed only in `deinit` (`inflateEnd` only when `inflateInit2_` succeeded),
/// so a failed initialization frees nothing twice.
package final class Inflater {
    /// 15 + 16: a 32 KiB window and a gzip header and trailer (CRC-32 and length are checked).
    static let gzipWindowBits: Int32 = 15 + 16

    private let stream: UnsafeMutablePointer<z_stream>
    /// True once `inflateInit2_` succeeded: only then does `deinit` call `inflateEnd`.
    private var started = false

    package convenience init() throws(InflateError) {
        try self.init(windowBits: Self.gzipWindowBits)
    }

    /// `windowBits` as zlib takes it (tests pass an invalid one to reach the failure path).
    init(windowBits: Int32) throws(InflateError) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // Every stored property is set: from here `deinit` runs even when this initializer throws.
        try check(inflateInit2_(stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)))
        started = true
    }

    deinit {
        if started { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Inflates from `input` (possibly empty, to drain output held back) into `output[filled...]`, advancing
    /// `filled`. Returns the input bytes consumed and whether the gzip member ended (its trailer checked).
    package func inflate(_ input: ArraySlice<UInt8>, into output: inout [UInt8], filled: inout Int)
        throws(InflateError) -> (consumed: Int, ended: Bool) {
        let space = output.count - filled
        guard space > 0 else { return (0, false) }
        let start = filled
        let result: Result<(Int, Int, Int32), InflateError> = input.withUnsafeBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.pointee.next_in = inBuffer.baseAddress.map { UnsafeMutablePointer(mutating: $0) }
                stream.pointee.avail_in = UInt32(inBuffer.count)
                stream.pointee.next_out = outBuffer.baseAddress! + start
                stream.pointee.avail_out = UInt32(space)
                let code = CZlib.inflate(stream, Z_NO_FLUSH)
                let consumed = inBuffer.count - Int(stream.pointee.avail_in)
                let produced = space - Int(stream.pointee.avail_out)
                stream.pointee.next_in = nil
                stream.pointee.next_out = nil
                do throws(InflateError) {
                    return .success((consumed, produced, try check(code)))
                } catch {
                    return .failure(error)
                }
            }
        }
        let (consumed, produced, code) = try result.get()
        filled += produced
        return (consumed, code == Z_STREAM_END)
    }

    /// Starts a new gzip member (a concatenated `.gz`).
    package func reset() throws(InflateError) {
        try check(inflateReset(stream))
    }

    /// The one check every zlib return code passes: progress codes come back, failures throw with zlib's message.
    @discardableResult
    private func check(_ code: Int32) throws(InflateError) -> Int32 {
        switch code {
        case Z_OK, Z_STREAM_END, Z_BUF_ERROR:
            return code
        default:
            let detail = stream.pointee.msg.map { String(cString: $0) }
            let meaning: String
            switch code {
            case Z_DATA_ERROR: meaning = "corrupt data"
            case Z_MEM_ERROR: meaning = "out of memory"
            case Z_NEED_DICT: meaning = "needs a preset dictionary"
            case Z_VERSION_ERROR: meaning = "incompatible zlib version"
            case Z_STREAM_ERROR: meaning = "invalid stream parameters"
            default: meaning = "zlib error \(code)"
            }
            throw InflateError(message: detail.map { "\(meaning) (\($0))" } ?? meaning)
        }
    }
}
