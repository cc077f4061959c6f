/// A post body as escaped plain text: what a post becomes when ``MarkdownBudget`` says cmark-gfm cannot take it in
/// bounded time.
///
/// Every character of the body is kept, in order, in one `<p class="plain-text">`: each line break (`\n`, `\r\n` or
/// `\r`, as cmark reads them) becomes `<br />` as `CMARK_OPT_HARDBREAKS` renders it, blank lines included, and `&`, `<`,
/// `>`, `"` and `'` are escaped, so nothing in the text is markup. Web addresses stay readable as the text they are
/// (the inert link policy shows a safe address as text too; none becomes a link). U+0000 and the inert-link marker
/// characters become U+FFFD, as in a Markdown body. One pass over the UTF-8: linear in the body's size.
enum PlainTextBody {
    /// The HTML fragment of `text`.
    static func html(_ text: String) -> String {
        var source = InertLinkMarkup.withoutMarkers(text)
        guard !source.isEmpty else { return "" }
        return source.withUTF8 { bytes in
            var html: [UInt8] = []
            html.reserveCapacity(bytes.count + bytes.count / 8 + 64)
            html.append(contentsOf: Array(open.utf8))
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case 0x0A, 0x0D:
                    if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                    html.append(contentsOf: lineBreak)
                case 0x26: html.append(contentsOf: [0x26, 0x61, 0x6D, 0x70, 0x3B])
                case 0x3C: html.append(contentsOf: [0x26, 0x6C, 0x74, 0x3B])
                case 0x3E: html.append(contentsOf: [0x26, 0x67, 0x74, 0x3B])
                case 0x22: html.append(contentsOf: [0x26, 0x71, 0x75, 0x6F, 0x74, 0x3B])
                case 0x27: html.append(contentsOf: [0x26, 0x23, 0x33, 0x39, 0x3B])
                case 0x00: html.append(contentsOf: [0xEF, 0xBF, 0xBD])
                default: html.append(byte)
                }
                index += 1
            }
            html.append(contentsOf: Array(close.utf8))
            return String(decoding: html, as: UTF8.self)
        }
    }

    /// The paragraph's start tag.
    static let open = "<p class=\"plain-text\">"
    /// The paragraph's end tag and line.
    static let close = "</p>\n"
    private static let lineBreak = Array("<br />\n".utf8)
}
