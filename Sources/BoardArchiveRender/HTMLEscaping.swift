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
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else { return text }
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
}
