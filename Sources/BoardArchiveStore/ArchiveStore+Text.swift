import Foundation

extension ArchiveStore {
    /// Text as SQLite keeps it whole: every U+0000 becomes U+FFFD.
    ///
    /// SQLite's C API reads a bound string up to its first NUL, so `"nul\u{0}title"` would be stored as `"nul"` and
    /// everything after the NUL lost. The replacement character keeps the rest and shows that something was there,
    /// as cmark-gfm does for a NUL in a body. Every text column a crawl writes goes through here.
    static func storable(_ text: String) -> String {
        text.utf8.contains(0) ? text.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}") : text
    }

    /// ``storable(_:)-(String)`` for an optional column.
    static func storable(_ text: String?) -> String? {
        text.map { storable($0) }
    }
}
