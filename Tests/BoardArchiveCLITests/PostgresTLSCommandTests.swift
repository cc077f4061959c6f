import Foundation
import Testing

/// TLS to a PostgreSQL store, end to end, on a private server that takes TLS connections only (`scripts/postgres-server.sh
/// start-tls`: a throwaway CA signs its certificate for localhost and 127.0.0.1): the URL's `sslmode` and
/// `sslrootcert` as a managed database needs them.
@Suite("PostgreSQL over TLS end to end", .serialized)
struct PostgresTLSCommandTests {
    @Test func aStoreReachedOverTLSWorksAndEveryWrongSettingIsOneSentence() async throws {
        try await PostgresFaultTests.withPrivateServer("boardarchive-pg-tls", command: "start-tls") { envfile, folder in
            try await Self.connectOverTLS(envfile: envfile, folder: folder)
        }
    }

    static func connectOverTLS(envfile: String, folder: URL) async throws {
        let variables = try PostgresFaultTests.variables(envfile)
        let url = try #require(variables["BOARDARCHIVE_TEST_POSTGRES_URL"].flatMap(URLComponents.init(string:)))
        let ca = try #require(variables["BOARDARCHIVE_TEST_POSTGRES_CA_FILE"])
        let otherCA = try #require(variables["BOARDARCHIVE_TEST_POSTGRES_OTHER_CA_FILE"])
        let passwordFile = try #require(variables["BOARDARCHIVE_TEST_POSTGRES_PASSWORD_FILE"])
        let password = try String(contentsOfFile: passwordFile, encoding: .utf8)
        let environment = ["PGPASSWORD": password, "PGPASSFILE": "/dev/null"]
        let port = try #require(url.port)
        func store(host: String, _ query: String) -> String { "postgres://archiver@\(host):\(port)/archive_test?\(query)" }
        func run(_ arguments: [String]) async throws -> CommandRunner.Result {
            let result = try await CommandRunner.run(arguments, environment: environment)
            #expect(!result.stdout.contains(password) && !result.stderr.contains(password), "the password was shown")
            return result
        }
        // `require` with the CA file: the archive is created and published over TLS.
        let site = folder.appendingPathComponent("site").path
        let demo = try await run(["demo", "--out", site, "--store", store(host: "127.0.0.1", "sslmode=require&sslrootcert=\(ca)")])
        #expect(demo.status == 0, "stderr: \(demo.stderr)")
        // `verify-full` checks the chain and the host name the certificate was made for.
        let verified = try await run(["store", "check", "--store", store(host: "localhost", "sslmode=verify-full&sslrootcert=\(ca)")])
        #expect(verified.status == 0, "stderr: \(verified.stderr)")
        #expect(verified.stdout.contains("212 posts"), "\(verified.stdout)")
        // A certificate another CA signed: exit 69, one sentence naming TLS and what to fix.
        let untrusted = try await run(["store", "check", "--store", store(host: "localhost", "sslmode=verify-full&sslrootcert=\(otherCA)")])
        #expect(untrusted.status == 69, "stderr: \(untrusted.stderr)")
        #expect(untrusted.stderr.contains("asks for TLS, but the TLS handshake failed") && untrusted.stderr.contains("sslrootcert"))
        // Without TLS the server refuses the login (it takes TLS connections only): exit 77, one sentence.
        let plain = try await run(["store", "check", "--store", store(host: "127.0.0.1", "sslmode=disable")])
        #expect(plain.status == 77, "stderr: \(plain.stderr)")
        #expect(plain.stderr.contains("refused the login") && plain.stderr.contains("no encryption"), "\(plain.stderr)")
        for result in [untrusted, plain] {
            #expect(result.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }.count == 1, "\(result.stderr)")
        }
    }
}
