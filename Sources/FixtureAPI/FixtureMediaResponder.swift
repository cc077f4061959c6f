import Foundation
import Hummingbird

/// Answers `/media/` requests (see ``FixtureMedia``): demo pictures, generated pictures and picture faults.
///
/// Runs before the API's fault machinery, so a picture request neither counts as an API request nor meets its faults.
struct FixtureMediaResponder: Sendable {
    let state: FixtureState
    let faults: FixtureFaults
    let token: String?
    let otherOrigin: URL?
    let oversizedImageBytes: Int

    /// The size of one chunk of an oversized body.
    static let chunkSize = 64 * 1_024
    /// The longest wait `/media/fault/slow/<ms>/…` accepts, in milliseconds.
    static let maximumSlowMilliseconds = 600_000

    /// Whether `path` is a picture route.
    static func handles(_ path: String) -> Bool {
        path.hasPrefix(FixtureMedia.pathPrefix)
    }

    func respond(to request: Request) async throws -> Response {
        let path = request.uri.path
        await state.recordMedia(FixtureMediaRequest(path: path, hadAuthorization: request.headers[.authorization] != nil))
        if faults.mediaLatency > 0 {
            try await Task.sleep(for: .milliseconds(faults.mediaLatency))
        }
        guard request.method == .get else {
            return text(.methodNotAllowed, "Only GET is supported.")
        }
        if faults.mediaRequiresAuthorization, !FixtureResponder.hasValidToken(request, token: token) {
            var response = text(.unauthorized, "A valid 'Authorization: Bearer <token>' header is required.")
            response.headers[.wwwAuthenticate] = "Bearer"
            return response
        }
        let parts = path.dropFirst(FixtureMedia.pathPrefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch parts.first {
        case "demo" where parts.count == 2:
            guard let bytes = FixtureMedia.demoImage(named: parts[1]) else { return notFound(path) }
            return image(bytes, type: FixtureMedia.contentType(forFileName: parts[1]))
        case "gen" where parts.count == 2:
            guard let n = Self.imageNumber(parts[1]) else { return notFound(path) }
            return image(FixtureMedia.generatedImage(n), type: "image/png")
        case "fault":
            return try await fault(Array(parts.dropFirst()), path: path, query: request.uri.query)
        default:
            return notFound(path)
        }
    }

    private func fault(_ parts: [String], path: String, query: String?) async throws -> Response {
        let rest = parts.dropFirst().joined(separator: "/")
        switch parts.first {
        case "redirect-other" where !rest.isEmpty:
            guard let otherOrigin else { return notFound(path) }
            var origin = otherOrigin.absoluteString
            while origin.hasSuffix("/") { origin.removeLast() }
            return redirect(to: origin + FixtureMedia.pathPrefix + rest + (query.map { "?" + $0 } ?? ""))
        case "redirect-same" where !rest.isEmpty:
            return redirect(to: FixtureMedia.pathPrefix + rest + (query.map { "?" + $0 } ?? ""))
        case "slow" where parts.count == 3:
            guard let milliseconds = Self.digits(parts[1]), milliseconds <= Self.maximumSlowMilliseconds,
                let n = Self.imageNumber(parts[2])
            else { return notFound(path) }
            try await Task.sleep(for: .milliseconds(milliseconds))
            return image(FixtureMedia.generatedImage(n), type: "image/png")
        default:
            break
        }
        switch path {
        case FixtureMedia.FaultPath.wrongType: return image(Array(FixtureMedia.wrongTypeHTML.utf8), type: "image/png")
        case FixtureMedia.FaultPath.scriptSVG: return image(Array(FixtureMedia.scriptSVG.utf8), type: "image/svg+xml")
        case FixtureMedia.FaultPath.disguisedSVG: return image(Array(FixtureMedia.scriptSVG.utf8), type: "image/png")
        case FixtureMedia.FaultPath.oversized: return oversized(announced: true)
        case FixtureMedia.FaultPath.oversizedUnannounced: return oversized(announced: false)
        case FixtureMedia.FaultPath.loop: return redirect(to: FixtureMedia.FaultPath.loopPartner)
        case FixtureMedia.FaultPath.loopPartner: return redirect(to: FixtureMedia.FaultPath.loop)
        default: return notFound(path)  // FaultPath.missing among them
        }
    }

    /// A PNG signature and `IHDR` (8000 × 6000 pixels) followed by zero bytes, `oversizedImageBytes` in all, written in
    /// chunks of ``chunkSize`` so the body is never one buffer; `announced` sends its `Content-Length`.
    private func oversized(announced: Bool) -> Response {
        let head = TinyPNG.header(width: 8_000, height: 6_000)
        let total = max(oversizedImageBytes, head.count)
        let body = ResponseBody(contentLength: announced ? total : nil) { writer in
            try await writer.write(ByteBuffer(bytes: head))
            var remaining = total - head.count
            let filler = ByteBuffer(repeating: 0, count: min(remaining, Self.chunkSize))
            while remaining > 0 {
                let size = min(remaining, Self.chunkSize)
                try await writer.write(filler.getSlice(at: filler.readerIndex, length: size) ?? ByteBuffer())
                remaining -= size
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "image/png"], body: body)
    }

    private func image(_ bytes: [UInt8], type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .contentLength: String(bytes.count)],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    private func redirect(to location: String) -> Response {
        Response(status: .found, headers: [.location: location, .contentLength: "0"], body: .init())
    }

    private func notFound(_ path: String) -> Response {
        text(.notFound, "No such picture: \(path)")
    }

    private func text(_ status: HTTPResponse.Status, _ message: String) -> Response {
        let buffer = ByteBuffer(string: message + "\n")
        return Response(
            status: status,
            headers: [.contentType: "text/plain; charset=utf-8", .contentLength: String(buffer.readableBytes)],
            body: .init(byteBuffer: buffer))
    }

    /// `n` of `<n>.png`: decimal digits, no leading zero (so each picture has one address).
    static func imageNumber(_ name: String) -> Int? {
        guard name.hasSuffix(".png") else { return nil }
        return digits(String(name.dropLast(".png".count)))
    }

    /// A non-negative decimal number without a sign or leading zeros, or `nil`.
    static func digits(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), text == "0" || !text.hasPrefix("0") else { return nil }
        return Int(text)
    }
}
