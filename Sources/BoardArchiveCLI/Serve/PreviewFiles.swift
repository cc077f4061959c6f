import Foundation

/// Maps a request path of the preview server to a file inside the site folder, refusing everything outside it.
///
/// The path is percent-decoded once; a `..` segment (also spelt `%2e%2e`), a NUL, or a file whose real path (symbolic
/// links resolved) lies outside the folder is refused. A folder answers with its `index.html`.
struct PreviewFiles: Sendable {
    /// What a request path leads to.
    enum Resolution: Equatable {
        /// A file to send, with its content type.
        case file(URL, contentType: String)
        /// A folder asked for without its trailing slash: redirect there, so relative links resolve.
        case redirect(String)
        /// Nothing there.
        case notFound
        /// Outside the folder, or not a path at all.
        case forbidden
    }

    /// The site folder, its symbolic links resolved.
    let root: URL

    init(root: URL) {
        self.root = root.resolvingSymlinksInPath().standardizedFileURL
    }

    /// The content type for a file name's extension; `application/octet-stream` for the unknown.
    static func contentType(of name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "html", "htm": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json": return "application/json"
        case "xml": return "application/xml"
        case "atom": return "application/atom+xml"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "ico": return "image/x-icon"
        case "txt": return "text/plain; charset=utf-8"
        case "woff2": return "font/woff2"
        default: return "application/octet-stream"
        }
    }

    /// Resolves the path part of a request target (`/boards/7/index.html`, without the query).
    func resolve(_ requestPath: String) -> Resolution {
        guard let decoded = requestPath.removingPercentEncoding, decoded.hasPrefix("/"), !decoded.contains("\0") else { return .forbidden }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !segments.contains(where: { $0 == ".." || $0 == "." }) else { return .forbidden }
        var candidate = root
        for segment in segments { candidate.appendPathComponent(segment) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory) else {
            // A link pointing outside that leads nowhere is still refused, not reported missing.
            return isInside(candidate.resolvingSymlinksInPath()) ? .notFound : .forbidden
        }
        guard isInside(candidate.resolvingSymlinksInPath()) else { return .forbidden }
        if isDirectory.boolValue {
            guard decoded.hasSuffix("/") else { return .redirect(requestPath + "/") }
            candidate.appendPathComponent("index.html")
            guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                return .notFound
            }
        }
        let real = candidate.resolvingSymlinksInPath().standardizedFileURL
        guard isInside(real) else { return .forbidden }
        return .file(real, contentType: Self.contentType(of: real.lastPathComponent))
    }

    /// Whether `url` (already resolved) is the root or lies below it.
    private func isInside(_ url: URL) -> Bool {
        let path = url.standardizedFileURL.path
        return path == root.path || path.hasPrefix(root.path.hasSuffix("/") ? root.path : root.path + "/")
    }
}
