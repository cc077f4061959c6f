import Foundation

/// An error raised while crawling the board API.
public struct CrawlError: Error, Equatable, Sendable, LocalizedError {
    public enum Reason: Equatable, Sendable {
        /// An HTTP status that is not retried, or a retried one that never cleared.
        case unexpectedStatus(Int, attempts: Int, waited: Int)
        /// No response after all attempts (timeout, dropped or refused connection).
        case transport(String, attempts: Int, waited: Int)
        /// The body is not the JSON envelope of the contract.
        case undecodableBody(String)
        /// One item of a page does not match the contract.
        case undecodableItem(board: Int?, offset: Int, post: Int?, field: String, detail: String)
        /// `401`: the token is missing, wrong or expired.
        case unauthorized
        /// `404` for a board.
        case notFound
        /// No token was configured, or its file could not be read.
        case missingToken(String)
        /// Two boards list the same post id in one crawl; a post id has one page, so neither copy is kept over the other.
        case postInTwoBoards(post: Int, first: Int, second: Int)
        /// A stop was requested (`SIGINT`, `SIGTERM`) before this request started.
        case interrupted
    }

    /// The request that failed, without host or credentials, e.g. `GET /boards/7/posts?offset=60&limit=30`.
    public var request: String
    public var reason: Reason

    public init(request: String, reason: Reason) {
        self.request = request
        self.reason = reason
    }

    public var errorDescription: String? {
        switch reason {
        case .unexpectedStatus(let status, let attempts, let waited) where attempts > 1:
            return "\(request) answered HTTP \(status) \(attempts) times; retried for \(waited) s. Re-run to resume."
        case .unexpectedStatus(403, _, _):
            return "\(request) answered HTTP 403: the API token is valid but may not read this; check the token's rights."
        case .unexpectedStatus(let status, _, _):
            return "\(request) answered HTTP \(status), which the board API contract does not allow here."
        case .transport(let detail, let attempts, let waited):
            return
                "\(request) got no response after \(attempts) attempt\(attempts == 1 ? "" : "s") over \(waited) s (\(detail)); check --api and the network, then re-run to resume."
        case .undecodableBody(let detail):
            return "\(request) answered a body that is not the expected JSON envelope (\(detail))."
        case .undecodableItem(let board, let offset, let post, let field, let detail):
            let place = (board.map { "board \($0), offset \(offset)" } ?? "offset \(offset)") + (post.map { " (post \($0))" } ?? "")
            return "\(request) returned an item that cannot be read at \(place), field `\(field)`: \(detail)."
        case .unauthorized:
            return "\(request) answered HTTP 401: the API token was refused; check --token-env or --token-file."
        case .notFound where request.hasPrefix("GET /boards") && !request.hasPrefix("GET /boards/"):
            return "\(request) answered HTTP 404: check that --api is the API's base URL, ending in its version path such as /api/v2."
        case .notFound:
            return "\(request) answered HTTP 404: the board does not exist (any more)."
        case .missingToken(let detail):
            return "No API token: \(detail)."
        case .interrupted:
            return "The crawl was stopped before \(request); the pages fetched so far are stored. Run the same command again to resume."
        case .postInTwoBoards(let post, let first, let second):
            return "\(request) lists post \(post), which board \(first) also lists in this crawl; a post id has one page "
                + "(posts/\(post).html), so the crawl stopped without storing board \(second)'s copy. Ask the API's owner which board "
                + "the post belongs to."
        }
    }
}
