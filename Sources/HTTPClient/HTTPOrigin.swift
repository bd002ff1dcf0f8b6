import Foundation

/// Where a URL's requests go, for the rule that credentials stay with their origin: scheme, host and port, the
/// scheme's default port filled in. `http://127.0.0.1:8080` and `http://localhost:8080` are two origins, as are two
/// ports of one host and the two schemes of one host.
package struct HTTPOrigin: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`.
    package let scheme: String
    /// The host as the URL names it, lower-cased (an IPv6 address without its brackets).
    package let host: String
    /// The port, 80 or 443 when the URL names none.
    package let port: Int

    /// The origin of an `http://` or `https://` URL with a host; nil for anything else.
    package init?(url: String) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        port = components.port ?? (scheme == "https" ? 443 : 80)
    }

    /// `http://127.0.0.1:8080`, `https://api.example.com` (the port shown unless it is the scheme's default).
    package var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let isDefault = port == (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(shownHost)" + (isDefault ? "" : ":\(port)")
    }
}
