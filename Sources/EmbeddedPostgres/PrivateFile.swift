#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files only their owner may read (mode 0600), replaced whole: a reader sees the old or the new contents.
enum PrivateFile {
    /// Writes `contents` to a temporary file beside `path` (mode 0600, owned by `owner` when given, synced),
    /// then renames it over `path`.
    static func store(_ contents: String, at path: String, owner: ServerAccount? = nil) throws {
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failure("create", temporary) }
        do {
            defer { close(descriptor) }
            guard fchmod(descriptor, 0o600) == 0 else { throw failure("set the mode of", temporary) }
            if let owner, fchown(descriptor, owner.uid, owner.gid) != 0 {
                throw failure("give \(owner.name)", temporary)
            }
            let bytes = Array(contents.utf8)
            var written = 0
            while written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw failure("write", temporary) }
                written += count
            }
            guard fsync(descriptor) == 0 else { throw failure("sync", temporary) }
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = failure("replace", path)
            unlink(temporary)
            throw error
        }
    }

    /// Sets the mode of the file at `path` to 0600 when it is anything else; throws when it is not a regular file.
    static func restrict(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw failure("read the mode of", path) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw LocalClusterError("\(path) is not a regular file: remove it and start again")
        }
        if info.st_mode & 0o7777 != 0o600, chmod(path, 0o600) != 0 { throw failure("set the mode of", path) }
    }

    private static func failure(_ action: String, _ path: String) -> LocalClusterError {
        LocalClusterError("could not \(action) \(path): \(String(cString: strerror(errno)))")
    }
}
