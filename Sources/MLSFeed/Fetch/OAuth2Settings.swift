/// An OAuth2 client-credentials grant (`source.http.auth.oauth2`): secrets come from `${ENV}`.
package struct OAuth2Settings: Sendable, Hashable {
    package var tokenURL: String
    package var clientID: String
    package var clientSecret: String
    package var scope: String?

    package init(tokenURL: String, clientID: String, clientSecret: String, scope: String? = nil) {
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scope = scope
    }
}
