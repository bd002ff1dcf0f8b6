import Foundation

/// The private directory (mode 0700, owned by this user) where HTTP bodies are spooled before they are parsed.
///
/// Each spool file is created there (0600) and unlinked as soon as it is open, so nothing is left behind however
/// the process ends; the name carries the pid, so a file orphaned in the instant between create and unlink (a
/// SIGKILL) is removed by the next run that opens the directory.
struct SpoolDirectory {
    let path: String

    /// `$TMPDIR/mlsfeed-spool-<uid>` (`/tmp` without `TMPDIR`).
    static var defaultPath: String {
        var temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        while temporary.count > 1 && temporary.hasSuffix("/") { temporary.removeLast() }
        return "\(temporary)/mlsfeed-spool-\(geteuid())"
    }

    /// Opens `path`, creating it (0700) when missing, and removes the spool files of processes that are gone.
    /// Refuses a directory that another user owns or that others may enter, and anything that is not a directory.
    init(path: String) throws {
        self.path = path
        var status = stat()
        if lstat(path, &status) != 0 {
            guard errno == ENOENT else { throw Self.error(path, "cannot inspect it: \(Self.lastError())") }
            let parent = (path as NSString).deletingLastPathComponent
            if !parent.isEmpty {
                do {
                    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
                } catch {
                    throw Self.error(path, "cannot create its parent directory \(parent)")
                }
            }
            guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
                throw Self.error(path, "cannot create it: \(Self.lastError())")
            }
            guard lstat(path, &status) == 0 else { throw Self.error(path, "cannot inspect it: \(Self.lastError())") }
        }
        try Self.check(path, status)
        removeOrphans()
    }

    /// A new, empty spool file, open for reading and writing and already unlinked.
    func create() throws -> SpoolFile {
        let name = "\(path)/\(getpid())-\(UUID().uuidString.lowercased()).spool"
        let descriptor = open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            if DiskFull.isFull(errno) {
                throw DiskFull(path: path, doing: "cannot create a spool file", reason: Self.lastError())
            }
            throw Self.error(path, "cannot create a spool file: \(Self.lastError())")
        }
        let file = SpoolFile(descriptor: descriptor, directory: path)
        guard unlink(name) == 0 else { throw Self.error(path, "cannot unlink a spool file: \(Self.lastError())") }
        return file
    }

    /// Removes `PID-*.spool` files whose process no longer exists.
    private func removeOrphans() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for name in names where name.hasSuffix(".spool") {
            guard let dash = name.firstIndex(of: "-"), let pid = pid_t(name[..<dash]), pid > 0, pid != getpid()
            else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink("\(path)/\(name)") }
        }
    }

    /// A directory of this user that nobody else may enter.
    private static func check(_ path: String, _ status: stat) throws {
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw error(path, status.st_mode & S_IFMT == S_IFLNK ? "is a symbolic link, not a directory"
                : "is not a directory")
        }
        guard status.st_uid == geteuid() else {
            throw error(path, "belongs to uid \(status.st_uid), not to this user (uid \(geteuid()))")
        }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw error(path, "has mode \(String(mode, radix: 8)): other users may enter it (chmod 700 \(path))")
        }
    }

    private static func error(_ path: String, _ problem: String) -> FetchError {
        FetchError("spool directory \(path) \(problem)")
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
