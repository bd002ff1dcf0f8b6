/// An OAuth2 client-credentials grant (`source.http.auth.oauth2`): secrets come from `${ENV}`.
public struct OAuth2Settings: Sendable, Hashable {
    public var tokenURL: String
    public var clientID: String
    public var clientSecret: String
    public var scope: String?

    public init(tokenURL: String, clientID: String, clientSecret: String, scope: String? = nil) {
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scope = scope
    }
}
