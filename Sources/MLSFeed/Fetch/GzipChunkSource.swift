import Inflate

/// Decompresses a gzip stream (one or more members) chunk by chunk; identity is that of the compressed input.
final class GzipChunkSource: ChunkSource {
    private let raw: any ChunkSource
    private let inflater: Inflater
    private let chunkSize: Int
    private var input: [UInt8]
    private var inputIndex = 0
    private var rawEnded = false
    private var memberEnded = false
    /// The last call filled the output buffer, so zlib may still hold output back.
    private var outputMayBePending = false
    private var finished = false
    /// Bytes after decompression.
    private(set) var decompressedBytes: Int64 = 0

    /// `first`: the raw bytes already read from `raw` (to sniff the gzip magic).
    init(raw: any ChunkSource, first: [UInt8], chunkSize: Int = Fetcher.chunkSize) throws {
        self.raw = raw
        self.input = first
        self.chunkSize = chunkSize
        do {
            inflater = try Inflater()
        } catch {
            throw FetchError("\(raw.location): cannot start gzip decompression: \(error.message)")
        }
    }

    var location: String { raw.location }
    var identity: InputIdentity { raw.identity }
    var lastModified: String? { raw.lastModified }

    func next() throws -> [UInt8]? {
        guard !finished else { return nil }
        var output = [UInt8](repeating: 0, count: chunkSize)
        var filled = 0
        while filled < chunkSize {
            if inputIndex == input.count && !outputMayBePending {
                if rawEnded { break }
                if let chunk = try raw.next() {
                    input = chunk
                    inputIndex = 0
                } else {
                    rawEnded = true
                }
                continue
            }
            if memberEnded {
                // More bytes after a member: the next member of a concatenated .gz.
                do { try inflater.reset() } catch { throw invalid(error) }
                memberEnded = false
            }
            let before = filled
            let consumed: Int, ended: Bool
            do {
                (consumed, ended) = try inflater.inflate(input[inputIndex...], into: &output, filled: &filled)
            } catch {
                throw invalid(error)
            }
            inputIndex += consumed
            outputMayBePending = filled == chunkSize && !ended
            if ended {
                memberEnded = true
            } else if consumed == 0 && filled == before && inputIndex < input.count {
                throw FetchError("\(location): not a valid gzip file: decompression makes no progress")
            }
        }
        if filled == 0 {
            if !memberEnded {
                throw FetchError("\(location): gzip data ends early (truncated file?) after "
                    + "\(raw.identity.bytes ?? 0) compressed bytes")
            }
            finished = true
            return nil
        }
        output.removeSubrange(filled...)
        decompressedBytes += Int64(filled)
        return output
    }

    private func invalid(_ failure: InflateError) -> FetchError {
        FetchError("\(location): not a valid gzip file: \(failure.message)")
    }
}
