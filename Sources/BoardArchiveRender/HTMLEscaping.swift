import Mustache

/// The HTML escaping of every `{{x}}` tag: `&`, `<`, `>`, `"` and `'` replaced, byte by byte.
///
/// swift-mustache's own HTML escaping walks the text `Character` by `Character` and looks each one up in a
/// dictionary, which cost more than the rest of rendering a keyword page. This content type gives the same output
/// for every text (and escapes a markup character even when a combining mark follows it, which the built-in one
/// leaves alone). ``TemplateRenderer`` selects it with swift-mustache's `CONTENT_TYPE` pragma, registered under
/// ``name``, on a line of its own before every template's text.
package struct HTMLEscaping: MustacheContentType {
    /// The name the pragma uses.
    static let name = "BOARDARCHIVE_HTML"
    /// The line put before every template's text.
    static let pragmaLine = "{{% CONTENT_TYPE: \(name)}}\n"

    /// Registers the content type with swift-mustache once per process.
    static let registered: Bool = {
        MustacheContentTypes.register(HTMLEscaping(), named: name)
        return true
    }()

    package func escapeText(_ text: String) -> String {
        Self.escape(text)
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` as `&amp;`, `&lt;`, `&gt;`, `&quot;` and `&#39;`.
    package static func escape(_ text: String) -> String {
        guard needsEscaping(text) else { return text }
        let utf8 = text.utf8
        var html: [UInt8] = []
        html.reserveCapacity(utf8.count + 16)
        for byte in utf8 {
            switch byte {
            case 0x26: html.append(contentsOf: "&amp;".utf8)
            case 0x3C: html.append(contentsOf: "&lt;".utf8)
            case 0x3E: html.append(contentsOf: "&gt;".utf8)
            case 0x22: html.append(contentsOf: "&quot;".utf8)
            case 0x27: html.append(contentsOf: "&#39;".utf8)
            default: html.append(byte)
            }
        }
        return String(decoding: html, as: UTF8.self)
    }

    /// Whether `text` holds a byte ``escape(_:)`` replaces: read from the string's own storage, a byte at a time, where
    /// a generic search of its UTF-8 view went through the view's iterator (most texts hold none, and are printed as
    /// they are).
    static func needsEscaping(_ text: String) -> Bool {
        func isMarkup(_ byte: UInt8) -> Bool { byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27 }
        return text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where isMarkup(byte) { return true }
            return false
        } ?? text.utf8.contains(where: isMarkup)
    }
}
