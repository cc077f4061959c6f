import ArgumentParser
import BoardArchive
import Foundation

/// The documented exit codes (sysexits-style), shared by every command.
enum ExitCodes {
    /// 0: success.
    static let success: Int32 = 0
    /// 1: an unexpected failure.
    static let failure: Int32 = 1
    /// 64: bad command-line usage or configuration (a flag, a `BOARDARCHIVE_…` variable, or `boardarchive.yaml`).
    static let usage: Int32 = 64
    /// 65: the API answered data that does not match the contract (including an id beyond ±(2^53 − 1), one post id in
    /// two boards, a body that cannot be decoded or decompressed), or a board still disagreed with its total after
    /// re-verification.
    static let dataError: Int32 = 65
    /// 66: `redact` named a post, board, writer or redaction number the store does not hold (or one already undone).
    static let noInput: Int32 = 66
    /// 69: the API was unreachable or kept failing after retries; a PostgreSQL store's server was unreachable or could not
    /// give the TLS asked for.
    static let unavailable: Int32 = 69
    /// 73: the store or the output could not be used (also a refused output folder, a broken template or a partial loop,
    /// an empty or schema-less store, a missing store when `store.create` is false, a store another crawl holds, a build
    /// that would remove more than half of the previous site's posts).
    static let cannotCreate: Int32 = 73
    /// 77: no token, or the API refused it (401); a PostgreSQL store's server refused the login.
    static let unauthorized: Int32 = 77
    /// 130: the crawl stopped on `SIGINT` (128 + 2); the pages fetched are stored, the next run resumes.
    static let interrupted: Int32 = 130
    /// 143: the crawl stopped on `SIGTERM` (128 + 15); the pages fetched are stored, the next run resumes.
    static let terminated: Int32 = 143

    static let helpText = """
        Exit codes: 0 success; 1 unexpected failure; 64 usage or configuration error; 65 the API sent data that breaks the contract, \
        or a board still disagreed with its total after re-verification; 66 redact named a post, board, writer or redaction \
        the store does not hold; 69 the API (or a PostgreSQL store's server) was unreachable, kept failing after retries, or could not give the TLS asked for; 73 the store, templates or output folder could not \
        be used (a missing store when store.create is false, a store another crawl holds), or build refused to publish a site keeping fewer than half of the previous site's posts (see --allow-shrink); \
        the previous site and the store are left untouched; 77 no API token, or the API refused it (401, 403), or a PostgreSQL server refused the store's login; \
        130 / 143 the crawl stopped on SIGINT / SIGTERM after storing the pages in flight (run the same command again to resume).
        """

    /// The exit code for an error thrown by the library.
    static func code(for error: any Error) -> Int32 {
        switch error {
        case let error as CrawlError:
            switch error.reason {
            case .unauthorized, .missingToken, .unexpectedStatus(403, _, _): return unauthorized
            case .undecodableBody, .undecodableItem, .postInTwoBoards: return dataError
            case .unexpectedStatus, .transport, .notFound: return unavailable
            case .interrupted: return interrupted
            }
        case let error as RedactionError:
            switch error.reason {
            case .anonymizeNeedsWriter, .missingReason: return usage
            default: return noInput
            }
        case let error as StoreError:
            switch error.reason {
            case .unknownScheme, .unsupportedBackend, .invalidURL, .backupOverStore: return usage
            case .unreachable, .tlsFailed: return unavailable
            case .authenticationFailed: return unauthorized
            default: return cannotCreate
            }
        case is BuildError: return cannotCreate
        case is SettingsError: return usage
        default: return failure
        }
    }
}

/// Prints a library error as one line on stderr and exits with its documented code.
func exitWithError(_ error: any Error) -> ExitCode {
    let message = (error as? LocalizedError)?.errorDescription ?? String(describing: error)
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    return ExitCode(ExitCodes.code(for: error))
}
