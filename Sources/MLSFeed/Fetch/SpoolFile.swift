import Foundation

/// One unlinked spool file (see `SpoolDirectory`): the body is written into it, then read back from the start.
/// Its descriptor is closed when it goes, which frees the space.
final class SpoolFile {
    /// The open file, closed in `deinit`.
    let handle: FileHandle

    init(descriptor: Int32) {
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Moves back to the first byte, to read what was written.
    func rewind() throws {
        guard lseek(handle.fileDescriptor, 0, SEEK_SET) == 0 else {
            throw FetchError("cannot rewind the spooled body: \(String(cString: strerror(errno)))")
        }
    }

    /// Up to `max` bytes from the current offset; nil at the end.
    func read(max: Int) throws -> [UInt8]? {
        let descriptor = handle.fileDescriptor
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: max) { buffer, count in
            count = 0
            while true {
                let got = Glibc.read(descriptor, buffer.baseAddress, max)
                if got < 0 && errno == EINTR { continue }
                if got < 0 { failure = errno } else { count = got }
                return
            }
        }
        guard failure == 0 else {
            throw FetchError("cannot read the spooled body: \(String(cString: strerror(failure)))")
        }
        return bytes.isEmpty ? nil : bytes
    }
}
