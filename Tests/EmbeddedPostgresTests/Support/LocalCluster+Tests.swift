@testable import EmbeddedPostgres

extension LocalCluster {
    /// `conninfo` without its password file, with `extra` keywords appended.
    func conninfoWithoutPasswordFile(_ extra: String = "") -> String {
        let range = conninfo.range(of: " passfile=", options: .backwards)!
        return String(conninfo[..<range.lowerBound]) + (extra.isEmpty ? "" : " " + extra)
    }

    /// The superuser's password, read from the password file.
    func password() throws -> String {
        let contents = try String(contentsOfFile: passwordFile, encoding: .utf8)
        guard let password = PasswordFile.password(in: contents) else {
            throw LocalClusterError("no password in \(passwordFile)")
        }
        return password
    }
}
