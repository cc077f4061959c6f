import BoardArchive
import FixtureAPI
import Foundation
import Testing

/// The fault matrix through `boardarchive export`: a clean export publishes a site, then an export against a faulty
/// API serving the same data either completes with every post stored or fails with its one-sentence error and exit
/// code; either way the store keeps every post, and the site is byte- and mtime-identical where the data did not change.
@Suite("Fault matrix through export", .serialized)
struct FaultMatrixCommandTests {
    /// One row of the matrix.
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var faults: FixtureFaults
        var arguments: [String] = []
        /// The exit status; 0 means the run completes.
        var status: Int32 = 0
        /// A fragment of the one-sentence error of a failing row.
        var error: String?
        /// Whether the source's data stays the same (then the site must not change at all).
        var dataUnchanged = true
        var testDescription: String { name }
    }

    static let big = NightlyHarness.bigBoard

    static let rows: [Row] = [
        Row(name: "500 burst", faults: FixtureFaults(errorBurst: 2, errorBurstStatus: 500)),
        Row(name: "503 burst", faults: FixtureFaults(errorBurst: 2, errorBurstStatus: 503)),
        Row(name: "429 with Retry-After seconds", faults: FixtureFaults(tooManyRequestsEvery: 3, retryAfterSeconds: 1)),
        Row(
            name: "429 with Retry-After as an HTTP date",
            faults: with(FixtureFaults(tooManyRequestsEvery: 3, retryAfterSeconds: 1)) { $0.retryAfterAsDate = true }),
        Row(
            name: "request timeouts",
            faults: with(FixtureFaults()) {
                $0.stallFirstAttempts = 1; $0.stallMilliseconds = 2_000
            }, arguments: ["--request-timeout", "0.3"]),
        Row(name: "connections dropped mid-body", faults: with(FixtureFaults()) { $0.dropMidBodyFirstAttempts = 1 }),
        Row(name: "truncated JSON", faults: FixtureFaults(truncatedJSONRate: 0.5, seed: 11)),
        Row(
            name: "well-formed JSON of the wrong shape", faults: with(FixtureFaults()) { $0.wrongShapeBoard = big }, status: 65,
            error: "answered a body that is not the expected JSON envelope"),
        Row(name: "401 mid-crawl", faults: FixtureFaults(unauthorizedAfter: 4), status: 77, error: "answered HTTP 401: the API token was refused"),
        Row(name: "a listed board answering 404", faults: with(FixtureFaults()) { $0.missingBoard = big }, dataUnchanged: false),
        Row(name: "offset drift", faults: FixtureFaults(offsetDrift: .init(boardId: big, insert: 3, delete: 2)), dataUnchanged: false),
        Row(
            name: "a board whose total lies", faults: with(FixtureFaults()) { $0.lyingTotalBoard = big }, status: 65,
            error: "still disagreed with its total"),
    ]

    static func with(_ faults: FixtureFaults, _ change: (inout FixtureFaults) -> Void) -> FixtureFaults {
        var changed = faults
        change(&changed)
        return changed
    }

    @Test(arguments: rows)
    func aFaultEitherCompletesOrFailsCleanly(row: Row) async throws {
        try await NightlyHarness.with { nightly in
            let (clean, _) = try await nightly.run(command: "export")
            #expect(clean.status == 0, "stderr: \(clean.stderr)")
            let site = try nightly.siteSnapshot()
            let ids = Set(try nightly.rows("SELECT postId FROM post").map { $0[0] })
            let faulty = try await FixtureServer.start(
                FixtureServerConfiguration(dataset: nightly.dataset, faults: row.faults, token: NightlyHarness.token))
            let result: CommandRunner.Result
            do {
                result = try await nightly.run(["--full"] + row.arguments, command: "export", api: faulty.baseURL).0
                await nightly.serve(await faulty.dataset)
                await faulty.stop()
            } catch {
                await faulty.stop()
                throw error
            }
            #expect(result.status == row.status, "stderr: \(result.stderr)")
            if row.status == 0, row.dataUnchanged {
                // The fault did fire: the run had to retry.
                let retries = result.stdout.split(separator: ",").first { $0.hasSuffix(" retries") }?.split(separator: " ").first
                #expect(retries.flatMap { Int($0) }.map { $0 > 0 } == true, "stdout: \(result.stdout)")
            }
            if let error = row.error {
                // The run ends with its one-sentence error.
                let last = result.stderr.split(separator: "\n").last ?? ""
                #expect(last.hasPrefix("error: ") && last.contains(error), "stderr: \(result.stderr)")
            }
            // The store keeps every post it had, and everything the run fetched.
            #expect(ids.isSubset(of: Set(try nightly.rows("SELECT postId FROM post").map { $0[0] })))
            #expect(try nightly.integrity() == "ok")
            if row.status == 0, row.faults.missingBoard == nil { try nightly.expectStoreHoldsTheSource() }
            if row.dataUnchanged { try nightly.expectSiteUnchanged(since: site) }
            if let board = row.faults.missingBoard {
                // The board is marked gone with its posts, which stay in the archive.
                let kept = try nightly.rows("SELECT COUNT(*), COUNT(goneSince) FROM post WHERE boardId = \(board)")
                #expect(kept == [["137", "137"]])
                #expect(try nightly.rows("SELECT goneSince IS NOT NULL FROM board WHERE boardId = \(board)") == [["1"]])
            }
        }
    }
}
