import Digest
import Foundation

/// A local file or standard input read in chunks, hashing the bytes as they pass.
final class FileChunkSource: ChunkSource {
    let location: String
    /// The open file, or standard input.
    private let descriptor: Int32
    /// Whether the descriptor is ours to close (not standard input's; a file opened while descriptor 0 was free is).
    private let ownsDescriptor: Bool
    private let chunkSize: Int
    private var hasher = SHA256()
    private var bytesRead: Int64 = 0
    private var digest: String?

    /// Opens `path`, or standard input for `-`.
    init(path: String, chunkSize: Int = Fetcher.chunkSize) throws {
        self.location = path
        self.chunkSize = chunkSize
        if path == "-" {
            descriptor = STDIN_FILENO
            ownsDescriptor = false
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw FetchError("\(path): no such file or directory")
            }
            guard !isDirectory.boolValue else { throw FetchError("\(path): is a directory, not a feed file") }
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            guard opened >= 0 else {
                throw FetchError("\(path): cannot open for reading (\(String(cString: strerror(errno))))")
            }
            descriptor = opened
            ownsDescriptor = true
        }
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// The next `chunkSize` bytes (fewer only at the end), read straight into the chunk: no `Data` in between,
    /// so a chunk is one allocation, not two and a copy.
    func next() throws -> [UInt8]? {
        guard digest == nil else { return nil }
        let descriptor = self.descriptor
        let size = chunkSize
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            while count < size {
                let n = read(descriptor, buffer.baseAddress! + count, size - count)
                if n > 0 {
                    count += n
                } else if n == 0 {
                    break
                } else if errno != EINTR {
                    failure = errno
                    break
                }
            }
        }
        if failure != 0 {
            throw FetchError("\(location): read failed: \(String(cString: strerror(failure)))")
        }
        guard !bytes.isEmpty else {
            digest = hasher.finalizeHex()
            return nil
        }
        hasher.update(bytes)
        bytesRead += Int64(bytes.count)
        return bytes
    }

    var identity: InputIdentity {
        InputIdentity(location: location, bytes: bytesRead, sha256: digest)
    }
}
