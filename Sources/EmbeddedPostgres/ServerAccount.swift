#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system account the server runs as: `postgres` when mlsfeed runs as root (`initdb` refuses root), else the
/// user running mlsfeed. It owns the cluster's directories; nobody else may enter them.
struct ServerAccount: Sendable, Equatable {
    let uid: uid_t
    let gid: gid_t
    let name: String
    /// Whether server programs run through `runuser -u postgres` (mlsfeed runs as root).
    let switchesUser: Bool

    /// The account for the current process.
    static func current() throws -> ServerAccount {
        guard geteuid() == 0 else {
            return ServerAccount(uid: geteuid(), gid: getegid(), name: userName(geteuid()), switchesUser: false)
        }
        guard let (uid, gid) = lookUp("postgres") else {
            throw LocalClusterError("running as root needs the `postgres` system user to run the server: "
                + "install it with `apt-get install postgresql`")
        }
        return ServerAccount(uid: uid, gid: gid, name: "postgres", switchesUser: true)
    }

    /// The login name of `uid`, or `uid N` when it has none.
    static func userName(_ uid: uid_t) -> String {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil,
              let name = entry.pw_name else { return "uid \(uid)" }
        return String(cString: name)
    }

    /// The uid and gid of the user `name`, nil when there is none.
    private static func lookUp(_ name: String) -> (uid_t, gid_t)? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return (entry.pw_uid, entry.pw_gid)
    }
}
