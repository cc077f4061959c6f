import BoardArchiveModel

/// The output URL contract: where every page lives, relative to the site root.
///
/// Paths never start with `/` and always name a file, so the site works from `file://`, from any sub-path
/// of a host and from a zip. Templates receive `root` (the way back to the site root from the current
/// page) and join it with these paths.
package enum SitePaths {
    /// The home page.
    package static let home = "index.html"
    /// The search page (built by the search phase).
    package static let search = "search.html"
    /// The folder assets are copied into.
    package static let assets = "assets/"
    /// The marker file that says BoardArchive made (and may replace) the output folder.
    package static let marker = ".boardarchive"

    /// `boards/<boardId>/index.html` for the front page (nil), `boards/<boardId>/page-<c+2>.html` for archive page `c`
    /// (see ``ListingPages``).
    package static func board(_ boardId: Int, archivePage: Int? = nil) -> String {
        "boards/\(boardId)/" + ListingPages.fileName(ofArchivePage: archivePage)
    }

    /// `posts/<postId>.html`.
    package static func post(_ postId: Int) -> String {
        "posts/\(postId).html"
    }

    /// `posts/<postId>-v<version>.html`: earlier version `version` of a post (1 the oldest kept). A version keeps its
    /// number, so the address is stable; the post's page stays at ``post(_:)`` with its current text.
    package static func version(_ version: Int, ofPost postId: Int) -> String {
        "posts/\(postId)-v\(version).html"
    }

    /// Whether `path` is an earlier version's page (``version(_:ofPost:)``), which sitemaps leave out.
    package static func isVersion(_ path: String) -> Bool {
        guard path.hasPrefix("posts/"), path.hasSuffix(".html") else { return false }
        let name = path.dropFirst("posts/".count).dropLast(".html".count)
        guard let dash = name.lastIndex(of: "-"), name[name.index(after: dash)...].first == "v" else { return false }
        let number = name[name.index(dash, offsetBy: 2)...]
        return !number.isEmpty && number.allSatisfy { $0.isASCII && $0.isNumber } && Int(name[..<dash]) != nil
    }

    /// `media/<first two hex digits>/<sha-256>.<extension>`: a kept image, one file for every post that shows it. The
    /// address depends on the bytes alone, so it never changes and a file is never rewritten.
    package static func media(_ image: PublishedImage) -> String {
        media(hash: image.hash, format: image.format)
    }

    /// ``media(_:)`` of an image known by its hash and format.
    package static func media(hash: String, format: ImageFormat) -> String {
        "media/\(hash.prefix(2))/\(hash).\(format.fileExtension)"
    }

    /// The archive-wide Atom feed.
    package static let archiveFeed = "feed.xml"

    /// A board's Atom feed, `boards/<boardId>/feed.xml`.
    package static func boardFeed(_ boardId: Int) -> String {
        "boards/\(boardId)/feed.xml"
    }

    /// The relative root of a page at `path`: one `../` per folder it sits in.
    package static func relativeRoot(of path: String) -> String {
        String(repeating: "../", count: path.split(separator: "/", omittingEmptySubsequences: true).count - 1)
    }
}
