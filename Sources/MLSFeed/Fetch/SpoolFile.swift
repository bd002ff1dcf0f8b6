import Foundation

/// One unlinked spool file (see `SpoolDirectory`): written (an HTTP body, or the recognised keys of a load), then
/// read back from the start. Its descriptor is closed when it goes, which frees the space.
final class SpoolFile {
    /// The open file, closed in `deinit`.
    let handle: FileHandle
    /// The spool directory it lives in, named when the disk is full.
    let directory: String

    init(descriptor: Int32, directory: String) {
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        self.directory = directory
    }

    /// Moves back to the first byte, to read what was written.
    func rewind() throws {
        guard lseek(handle.fileDescriptor, 0, SEEK_SET) == 0 else {
            throw FetchError("cannot rewind the spooled body: \(String(cString: strerror(errno)))")
        }
    }

    /// Writes all of `bytes` at the current offset; a full disk throws `DiskFull` naming the directory.
    func write(_ bytes: [UInt8]) throws {
        let descriptor = handle.fileDescriptor
        try bytes.withUnsafeBytes { buffer in
            var at = 0
            while at < buffer.count {
                let wrote = Glibc.write(descriptor, buffer.baseAddress! + at, buffer.count - at)
                if wrote < 0 && errno == EINTR { continue }
                guard wrote > 0 else {
                    let code = wrote < 0 ? errno : EIO
                    let reason = String(cString: strerror(code))
                    if DiskFull.isFull(code) {
                        throw DiskFull(path: directory, doing: "cannot write a spool file", reason: reason)
                    }
                    throw FetchError("cannot write the spool file: \(reason)")
                }
                at += wrote
            }
        }
    }

    /// Exactly `count` bytes from the current offset; nil at the end, and an error when the file ends inside them.
    func read(exactly count: Int) throws -> [UInt8]? {
        var bytes: [UInt8] = []
        while bytes.count < count, let more = try read(max: count - bytes.count) {
            bytes.append(contentsOf: more)
        }
        if bytes.isEmpty && count > 0 { return nil }
        guard bytes.count == count else {
            throw FetchError("cannot read the spool file: it ends \(count - bytes.count) bytes short")
        }
        return bytes
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
