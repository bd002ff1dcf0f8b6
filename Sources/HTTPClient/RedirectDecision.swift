/// Whether the client follows one redirect: never from https to http, and to another origin only when the request
/// carries no credentials (libcurl alone would drop only `Authorization` and `Cookie` there, and send an API key
/// header on to any host).
package enum RedirectDecision: Equatable, Sendable {
    /// Send the request to the new URL.
    case follow
    /// Stop: the reason, naming the origins (never a path or query, which may hold a secret).
    case refuse(String)

    /// The decision for a redirect from a request to `from` towards `to`; `credentialed` when the request carries
    /// credentials (an `Authorization`, API key or `Cookie` header, an API key in the query, a URL password).
    package static func decide(from: HTTPOrigin, to: HTTPOrigin, credentialed: Bool) -> RedirectDecision {
        if from.scheme == "https" && to.scheme != "https" {
            return .refuse("refused a redirect from https to \(to): the request would leave TLS")
        }
        if credentialed && from != to {
            return .refuse("refused a redirect to \(to), another origin than \(from): the request carries "
                + "credentials, which are sent to their own origin only")
        }
        return .follow
    }
}
