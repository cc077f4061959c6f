import BoardArchiveModel
import Foundation

/// An Atom 1.0 feed document (RFC 4287), written as UTF-8 XML.
///
/// Every text is escaped for XML, and characters XML 1.0 cannot hold (control characters other than tab and
/// line breaks, U+FFFE, U+FFFF) become U+FFFD, so a hostile title cannot break the document.
struct AtomFeed: Sendable, Equatable {
    /// One post in the feed.
    struct Entry: Sendable, Equatable {
        /// A permanent, unique IRI.
        var id: String
        var title: String
        /// The post page, relative to the feed document or absolute.
        var link: String
        /// When the post was created.
        var published: Date
        /// When a crawl first saw the post's current text (an edit at the source), else when it was created.
        var updated: Date
        var author: String
        /// The board's name, in the archive's feed.
        var category: String?
        /// The body as HTML (cmark-gfm output), sent escaped as `type="html"`.
        var contentHTML: String
    }

    var id: String
    var title: String
    /// The feed's own address, relative to itself (its file name) or absolute.
    var selfLink: String
    /// The HTML page the feed follows.
    var alternateLink: String
    /// The latest entry's `updated`; the Unix epoch for a feed without entries, so the document stays deterministic.
    var updated: Date
    /// The `xml:lang` of the texts (`ko`, `en`).
    var language: String
    /// The feed-level author (the site's title), which also covers a feed without entries.
    var author: String
    var generatorVersion: String
    var entries: [Entry]

    /// The document.
    func xml() -> String {
        var out = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n"
        out += #"<feed xmlns="http://www.w3.org/2005/Atom" xml:lang=""# + Self.escape(language) + "\">\n"
        out += "<id>\(Self.escape(id))</id>\n"
        out += "<title>\(Self.escape(title))</title>\n"
        out += "<updated>\(ArchiveDate.format(updated))</updated>\n"
        out += #"<link rel="self" type="application/atom+xml" href=""# + Self.escape(selfLink) + "\"/>\n"
        out += #"<link rel="alternate" type="text/html" href=""# + Self.escape(alternateLink) + "\"/>\n"
        out += "<author><name>\(Self.escape(author))</name></author>\n"
        out += #"<generator version=""# + Self.escape(generatorVersion) + "\">BoardArchive</generator>\n"
        for entry in entries {
            out += "<entry>\n"
            out += "<id>\(Self.escape(entry.id))</id>\n"
            out += "<title type=\"text\">\(Self.escape(entry.title))</title>\n"
            out += #"<link rel="alternate" type="text/html" href=""# + Self.escape(entry.link) + "\"/>\n"
            out += "<published>\(ArchiveDate.format(entry.published))</published>\n"
            out += "<updated>\(ArchiveDate.format(entry.updated))</updated>\n"
            out += "<author><name>\(Self.escape(entry.author))</name></author>\n"
            if let category = entry.category { out += "<category term=\"\(Self.escape(category))\"/>\n" }
            out += "<content type=\"html\">\(Self.escape(entry.contentHTML))</content>\n"
            out += "</entry>\n"
        }
        out += "</feed>\n"
        return out
    }

    /// Escapes `text` for XML character data and attribute values, replacing characters XML 1.0 forbids.
    ///
    /// Worked on the UTF-8 bytes (appending scalar by scalar to a string made a 1 MB body's feed entry take 0.2 s).
    static func escape(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + bytes.count / 8)
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case 0x26: out.append(contentsOf: [0x26, 0x61, 0x6D, 0x70, 0x3B])  // &amp;
                case 0x3C: out.append(contentsOf: [0x26, 0x6C, 0x74, 0x3B])  // &lt;
                case 0x3E: out.append(contentsOf: [0x26, 0x67, 0x74, 0x3B])  // &gt;
                case 0x22: out.append(contentsOf: [0x26, 0x71, 0x75, 0x6F, 0x74, 0x3B])  // &quot;
                case 0x27: out.append(contentsOf: [0x26, 0x61, 0x70, 0x6F, 0x73, 0x3B])  // &apos;
                case 0x09, 0x0A, 0x0D: out.append(byte)
                case 0x00..<0x20: out.append(contentsOf: replacement)
                case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBF && (bytes[index + 2] == 0xBE || bytes[index + 2] == 0xBF):
                    // U+FFFE and U+FFFF.
                    out.append(contentsOf: replacement)
                    index += 2
                default: out.append(byte)
                }
                index += 1
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// U+FFFD in UTF-8.
    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
}
