import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The mode and owner of a file, read with `lstat`.
struct FileFacts: Equatable {
    /// Permission bits (`0o700`, ...).
    var mode: mode_t
    var owner: uid_t

    init(mode: mode_t, owner: uid_t) {
        self.mode = mode
        self.owner = owner
    }

    init(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        mode = info.st_mode & 0o7777
        owner = info.st_uid
    }

    /// The uid of the user `name`, nil when there is none.
    static func uid(of name: String) -> uid_t? {
        getpwnam(name).map { $0.pointee.pw_uid }
    }
}
