@testable import EmbeddedPostgres
import Testing

@Suite struct PasswordFileTests {
    @Test func generatesLongDistinctHexPasswords() {
        let passwords = (0..<20).map { _ in PasswordFile.generatePassword() }
        #expect(Set(passwords).count == 20)
        #expect(passwords.allSatisfy { $0.count == 48 && $0.allSatisfy { "0123456789abcdef".contains($0) } })
    }

    @Test(arguments: [
        ("3f9a", "*:*:*:postgres:3f9a\n"),
        ("a:b\\c", "*:*:*:postgres:a\\:b\\\\c\n"),
    ])
    func writesOneLineForThePostgresUser(password: String, contents: String) {
        #expect(PasswordFile.contents(password: password) == contents)
        #expect(PasswordFile.password(in: contents) == password)
    }

    @Test(arguments: [
        ("*:*:*:postgres:s3cret\n", "s3cret"),
        ("# comment\n*:*:*:app:other\nlocalhost:5432:*:postgres:mine\n", "mine"),
        ("*:*:*:*:any", "any"),
        ("*:*:*:postgres:with:colon", "with:colon"),
        ("*:*:*:app:other\n", nil),
        ("not a pgpass line", nil),
        ("", nil),
    ] as [(String, String?)])
    func readsThePasswordOfThePostgresUser(contents: String, expected: String?) {
        #expect(PasswordFile.password(in: contents) == expected)
    }
}
