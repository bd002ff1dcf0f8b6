import CZlib

/// One zlib inflate stream reading gzip members; the only file that imports CZlib and owns its handle.
final class Inflater {
    /// A zlib failure: its code's meaning plus zlib's own message (`incorrect header check`).
    struct Failure: Error, Equatable {
        var message: String
    }

    private let stream: UnsafeMutablePointer<z_stream>

    init() throws(Failure) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        do {
            // 15 + 16: a 32 KiB window and a gzip header and trailer (CRC-32 and length are checked).
            try check(inflateInit2_(stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)))
        } catch {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw error
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Inflates from `input` (possibly empty, to drain output held back) into `output[filled...]`, advancing
    /// `filled`. Returns the input bytes consumed and whether the gzip member ended (its trailer checked).
    func inflate(_ input: ArraySlice<UInt8>, into output: inout [UInt8], filled: inout Int) throws(Failure)
        -> (consumed: Int, ended: Bool) {
        let space = output.count - filled
        guard space > 0 else { return (0, false) }
        let start = filled
        let result: Result<(Int, Int, Int32), Failure> = input.withUnsafeBufferPointer { inBuffer in
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
                do throws(Failure) {
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
    func reset() throws(Failure) {
        try check(inflateReset(stream))
    }

    /// The one check every zlib return code passes: progress codes come back, failures throw with zlib's message.
    @discardableResult
    private func check(_ code: Int32) throws(Failure) -> Int32 {
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
            default: meaning = "zlib error \(code)"
            }
            throw Failure(message: detail.map { "\(meaning) (\($0))" } ?? meaning)
        }
    }
}
