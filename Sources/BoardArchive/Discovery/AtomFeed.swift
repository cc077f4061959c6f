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
        /// When the post was created (the API gives no edit time, so it is also `updated`).
        var published: Date
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
    /// The newest entry's date; the Unix epoch for a feed without entries, so the document stays deterministic.
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
            out += "<updated>\(ArchiveDate.format(entry.published))</updated>\n"
            out += "<author><name>\(Self.escape(entry.author))</name></author>\n"
            if let category = entry.category { out += "<category term=\"\(Self.escape(category))\"/>\n" }
            out += "<content type=\"html\">\(Self.escape(entry.contentHTML))</content>\n"
            out += "</entry>\n"
        }
        out += "</feed>\n"
        return out
    }

    /// Escapes `text` for XML character data and attribute values, replacing characters XML 1.0 forbids.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                if value < 0x20 || value == 0xFFFE || value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
