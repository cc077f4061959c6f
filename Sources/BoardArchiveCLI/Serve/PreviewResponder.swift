import Foundation
import Hummingbird

/// Answers `GET` and `HEAD` with the files of the site folder (see ``PreviewFiles``).
struct PreviewResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let files: PreviewFiles

    func respond(to request: Request, context: Context) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            return Self.text(.methodNotAllowed, "Only GET and HEAD are served.", headers: [.allow: "GET, HEAD"])
        }
        switch files.resolve(request.uri.path) {
        case .file(let url, let contentType):
            guard let data = FileManager.default.contents(atPath: url.path) else { return Self.text(.notFound, "Not found.") }
            var headers: HTTPFields = [.contentType: contentType, .cacheControl: "no-cache", .contentLength: String(data.count)]
            headers[.xContentTypeOptions] = "nosniff"
            let body = request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: data))
            return Response(status: .ok, headers: headers, body: body)
        case .redirect(let location):
            return Self.text(.movedPermanently, "Moved to \(location).", headers: [.location: location])
        case .notFound:
            return Self.text(.notFound, "Not found: \(request.uri.path)")
        case .forbidden:
            return Self.text(.forbidden, "Refused: the path leads outside the site folder.")
        }
    }

    /// A short plain-text answer.
    private static func text(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "text/plain; charset=utf-8"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}
