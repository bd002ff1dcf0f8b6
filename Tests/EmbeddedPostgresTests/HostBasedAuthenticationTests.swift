@testable import EmbeddedPostgres
import Testing

@Suite struct HostBasedAuthenticationTests {
    @Test(arguments: [
        // What `initdb -A trust` (older mlsfeed) wrote: every rule changes, comments and spacing stay.
        ("# TYPE  DATABASE        USER            ADDRESS                 METHOD\n"
            + "# \"local\" is for Unix domain socket connections only\n"
            + "local   all             all                                     trust\n"
            + "host    all             all             127.0.0.1/32            trust\n"
            + "host    replication     all             ::1/128                 trust\n",
         "# TYPE  DATABASE        USER            ADDRESS                 METHOD\n"
            + "# \"local\" is for Unix domain socket connections only\n"
            + "local   all             all                                     scram-sha-256\n"
            + "host    all             all             127.0.0.1/32            scram-sha-256\n"
            + "host    replication     all             ::1/128                 scram-sha-256\n"),
        ("local\tall\tall\ttrust", "local\tall\tall\tscram-sha-256"),
        // A user called trust is a user; only the method field changes.
        ("local all trust trust", "local all trust scram-sha-256"),
        ("local all trust peer", nil),
        // An address with a separate mask puts the method one field later.
        ("host all all 192.168.0.0 255.255.255.0 trust", "host all all 192.168.0.0 255.255.255.0 scram-sha-256"),
        ("host all all fe80:: ffff:: trust", "host all all fe80:: ffff:: scram-sha-256"),
        ("hostssl all all 10.0.0.0/8 trust clientcert=verify-full # lab",
         "hostssl all all 10.0.0.0/8 scram-sha-256 clientcert=verify-full # lab"),
        ("host all all samehost trust", "host all all samehost scram-sha-256"),
        ("host all all samehost md5", nil),
        ("# local all all trust", nil),
        ("local all all scram-sha-256 # was trust", nil),
        ("include_dir trust", nil),
        ("", nil),
    ] as [(String, String?)])
    func replacesTrustInRules(rules: String, expected: String?) {
        #expect(HostBasedAuthentication.withoutTrust(rules) == expected)
    }
}
