import BoardArchive
import Foundation
import Hummingbird

/// Answers the board API under `/api/v2`, with the configured faults, and hands `/media/` to the picture responder.
struct FixtureResponder: HTTPResponder {
    typealias Context = FixtureRequestContext

    let state: FixtureState
    let faults: FixtureFaults
    let token: String?
    let maximumLimit: Int
    let media: FixtureMediaResponder

    func respond(to request: Request, context: Context) async throws -> Response {
        // Pictures first: they are not API requests, so they neither count nor meet the API's faults.
        if FixtureMediaResponder.handles(request.uri.path) {
            return try await media.respond(to: request)
        }
        let target = request.uri.path + "?" + (request.uri.query ?? "")
        let ticket = await state.admit(target: target)
        if faults.latency > 0 {
            try await Task.sleep(for: .milliseconds(faults.latency))
        }
        if ticket.attempt < faults.stallFirstAttempts {
            try await Task.sleep(for: .milliseconds(faults.stallMilliseconds))
        }
        if let limit = faults.unauthorizedAfter, ticket.number > limit {
            return await error(.unauthorized, "The token is no longer accepted (unauthorizedAfter \(limit) requests).")
        }
        guard isAuthorized(request) else {
            return await error(.unauthorized, "A valid 'Authorization: Bearer <token>' header is required.")
        }
        if ticket.attempt < faults.errorBurst {
            return await error(
                HTTPResponse.Status(code: faults.errorBurstStatus), "Injected error burst (\(ticket.attempt + 1) of \(faults.errorBurst)).")
        }
        if let every = faults.tooManyRequestsEvery, every > 0, ticket.number % every == 0 {
            var response = await error(.tooManyRequests, "Injected rate limit: request \(ticket.number) is a multiple of \(every).")
            response.headers[.retryAfter] =
                faults.retryAfterAsDate
                ? Self.httpDate(Date().addingTimeInterval(Double(faults.retryAfterSeconds))) : String(faults.retryAfterSeconds)
            return response
        }
        var random = SeededRandom(seed: faults.seed, key: target, index: ticket.attempt)
        if random.chance(faults.failureRate) {
            let statuses = faults.failureStatuses
            let status = HTTPResponse.Status(code: statuses[Int(random.next() % UInt64(statuses.count))])
            return await error(status, "Injected failure.")
        }
        if random.chance(faults.dropConnectionRate) {
            await state.recordDroppedConnection()
            await context.dropConnection()
            return Response(status: .ok)
        }
        var response = try await route(request)
        if response.status == .ok, ticket.attempt < faults.dropMidBodyFirstAttempts, let body = response.bodyBytes {
            await state.recordDroppedConnection()
            return Self.droppedMidBody(body, headers: response.response.headers, context: context)
        }
        let truncated = response.status == .ok && random.chance(faults.truncatedJSONRate)
        if truncated, let body = response.bodyBytes {
            let cut = ByteBuffer(bytes: body.prefix(body.count / 2))
            response = json(cut, status: .ok)
        }
        await state.record(status: response.status.code, truncated: truncated)
        return response.response
    }

    private func isAuthorized(_ request: Request) -> Bool {
        Self.hasValidToken(request, token: token)
    }

    /// `nil` token: any non-empty bearer token; otherwise exactly the configured one.
    static func hasValidToken(_ request: Request, token: String?) -> Bool {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return false }
        let presented = header.dropFirst("Bearer ".count).trimmingCharacters(in: .whitespaces)
        guard !presented.isEmpty else { return false }
        return token.map { $0 == presented } ?? true
    }

    private func route(_ request: Request) async throws -> BuiltResponse {
        guard request.method == .get else {
            return errorBody(.methodNotAllowed, "Only GET is supported.")
        }
        let components = request.uri.path.split(separator: "/", omittingEmptySubsequences: true)
        guard components.count >= 3, components[0] == "api", components[1] == "v2", components[2] == "boards" else {
            return errorBody(.notFound, "No such endpoint: \(request.uri.path).")
        }
        if components.count == 3, let raw = faults.rawListings {
            return json(ByteBuffer(bytes: FixtureRawListings.envelope(of: raw.boards, offset: 0, limit: raw.boards.count)), status: .ok)
        }
        if components.count == 3 {
            return try encoded(await state.boardEnvelope())
        }
        guard components.count == 5, components[4] == "posts" else {
            return errorBody(.notFound, "No such endpoint: \(request.uri.path).")
        }
        guard let boardId = Int(components[3]), boardId != faults.missingBoard else {
            return errorBody(.notFound, "Unknown board \(components[3]).")
        }
        if boardId == faults.wrongShapeBoard {
            return json(ByteBuffer(string: #"{"value": {"posts": []}, "count": 0, "offset": 0, "limit": 30, "total": 0}"#), status: .ok)
        }
        let query = request.uri.queryParameters
        guard let offset = integer(query["offset"], default: 0), offset >= 0 else {
            return errorBody(.badRequest, "offset must be an integer ≥ 0.")
        }
        guard let limit = integer(query["limit"], default: 30), limit >= 1, limit <= maximumLimit else {
            return errorBody(.badRequest, "limit must be an integer from 1 to \(maximumLimit).")
        }
        var search: FixtureSearch?
        if let text = query["search"], !text.isEmpty {
            let targetText = query["searchTarget"].map(String.init) ?? ""
            guard let target = targetText.isEmpty ? .all : FixtureSearch.Target(rawValue: targetText) else {
                return errorBody(.badRequest, "searchTarget must be one of all, title, contents, writer.")
            }
            search = FixtureSearch(text: String(text), target: target)
        }
        if let raw = faults.rawListings {
            if let gzip = raw.gzipPostsBody {
                var built = json(ByteBuffer(bytes: gzip), status: .ok)
                built.response.headers[.contentEncoding] = "gzip"
                return built
            }
            guard let items = raw.posts[boardId] else { return errorBody(.notFound, "Unknown board \(boardId).") }
            return json(ByteBuffer(bytes: FixtureRawListings.envelope(of: items, offset: offset, limit: limit)), status: .ok)
        }
        switch await state.page(boardId: boardId, offset: offset, limit: limit, search: search) {
        case .unknownBoard: return errorBody(.notFound, "Unknown board \(boardId).")
        case .page(var envelope):
            if boardId == faults.lyingTotalBoard { envelope.total += faults.lyingTotalExtra }
            return try encoded(envelope)
        }
    }

    /// Absent or empty means `fallback`; anything else must be a whole number.
    private func integer(_ text: Substring?, default fallback: Int) -> Int? {
        guard let text, !text.isEmpty else { return fallback }
        return Int(text)
    }

    private func encoded(_ value: some Encodable) throws -> BuiltResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return json(ByteBuffer(bytes: try encoder.encode(value)), status: .ok)
    }

    private func error(_ status: HTTPResponse.Status, _ message: String) async -> Response {
        let built = errorBody(status, message)
        await state.record(status: status.code)
        return built.response
    }

    private func errorBody(_ status: HTTPResponse.Status, _ message: String) -> BuiltResponse {
        let body = FixtureErrorBody(status: status.code, error: status.reasonPhrase, message: message)
        let data = (try? JSONEncoder().encode(body)) ?? Data()
        var built = json(ByteBuffer(bytes: data), status: status)
        if status == .unauthorized {
            built.response.headers[.wwwAuthenticate] = "Bearer"
        }
        return built
    }

    private func json(_ buffer: ByteBuffer, status: HTTPResponse.Status) -> BuiltResponse {
        let response = Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .contentLength: String(buffer.readableBytes)],
            body: .init(byteBuffer: buffer))
        return BuiltResponse(response: response, bodyBytes: Array(buffer.readableBytesView))
    }
}

/// A response and the bytes of its body (kept so a fault can cut it).
private struct BuiltResponse {
    var response: Response
    var bodyBytes: [UInt8]?
    var status: HTTPResponse.Status { response.status }
}

/// The JSON body of every error answer: `{"status": 401, "error": "Unauthorized", "message": "…"}`.
struct FixtureErrorBody: Codable, Sendable, Equatable {
    var status: Int
    var error: String
    var message: String
}

extension FixtureResponder {
    /// An HTTP date (`Sun, 22 Nov 2026 10:00:09 GMT`), as a `Retry-After` may carry.
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// A response that promises the whole body (its `Content-Length`), sends half of it, then closes the connection.
    static func droppedMidBody(_ body: [UInt8], headers: HTTPFields, context: FixtureRequestContext) -> Response {
        let half = ByteBuffer(bytes: body.prefix(body.count / 2))
        let drop = context.dropConnection
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody(contentLength: body.count) { writer in
                try await writer.write(half)
                await drop()
            })
    }
}
