/// A row rendered once by Mustache with placeholders where its per-use texts go, then filled many times by concatenation.
///
/// A post listed under many keywords has a row on each keyword's page that differs only in its highlights
/// (`titleHTML`, `writerHTML`, `snippetHTML`). Rendering the row template once per post with a placeholder in each of
/// those keys, and filling the placeholders per keyword, gives the same bytes as rendering the row per keyword,
/// as long as the template only prints those keys (``TemplateRenderer/StencilPlan`` checks it when the templates load).
///
/// A placeholder is `U+0000`, the slot's letter, `&`, `U+0000`. The `&` shows whether the template printed the key
/// raw (`{{{x}}}`: `&`) or escaped (`{{x}}`: `&amp;`), so the filling escapes the value the way the template would
/// have. The store keeps no `U+0000` in text (``ArchiveStore`` replaces it), and a post whose row has one anyway is
/// rendered without a stencil.
struct RowStencil: Sendable {
    /// The keys a stencil leaves open, in slot order.
    static let slots = ["titleHTML", "writerHTML", "snippetHTML"]

    /// The placeholder of slot `index` as the context's value.
    static func placeholder(_ index: Int) -> String {
        "\u{0}" + String(UnicodeScalar(UInt8(ascii: "A") + UInt8(index))) + "&\u{0}"
    }

    /// The placeholders of every slot, keyed as the row context keys them.
    static let placeholders: [String: String] = Dictionary(uniqueKeysWithValues: slots.indices.map { (slots[$0], placeholder($0)) })

    /// One piece of the row: text to copy, or a slot to fill (raw or escaped).
    enum Piece: Sendable, Equatable {
        case text(String)
        case slot(Int, escaped: Bool)
    }

    /// The row's pieces in order.
    let pieces: [Piece]

    /// The stencil of `rendered`, a row rendered with ``placeholders``; nil when it holds a `U+0000` that is no
    /// placeholder (then the row must be rendered whole).
    init?(rendered: String) {
        let bytes = Array(rendered.utf8)
        var pieces: [Piece] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == 0 else {
                index += 1
                continue
            }
            guard let (slot, escaped, end) = Self.placeholder(in: bytes, at: index) else { return nil }
            if start < index { pieces.append(.text(String(decoding: bytes[start..<index], as: UTF8.self))) }
            pieces.append(.slot(slot, escaped: escaped))
            index = end
            start = end
        }
        if start < bytes.count { pieces.append(.text(String(decoding: bytes[start...], as: UTF8.self))) }
        self.pieces = pieces
    }

    /// The placeholder starting at `index` (a `U+0000`): its slot, whether it was escaped, and the index after it.
    private static func placeholder(in bytes: [UInt8], at index: Int) -> (Int, Bool, Int)? {
        let letter = index + 1
        guard letter < bytes.count, bytes[letter] >= UInt8(ascii: "A"), Int(bytes[letter] - UInt8(ascii: "A")) < slots.count else { return nil }
        let slot = Int(bytes[letter] - UInt8(ascii: "A"))
        for (marker, escaped) in [(Array("&\u{0}".utf8), false), (Array("&amp;\u{0}".utf8), true)] {
            let end = letter + 1 + marker.count
            if end <= bytes.count, bytes[(letter + 1)..<end].elementsEqual(marker) { return (slot, escaped, end) }
        }
        return nil
    }

    /// The row with slot `i` filled with `values[i]`, escaped where the template escaped it.
    func filled(with values: [String]) -> String {
        var row = ""
        for piece in pieces {
            switch piece {
            case .text(let text): row += text
            case .slot(let slot, let escaped): row += escaped ? HTMLEscaping.escape(values[slot]) : values[slot]
            }
        }
        return row
    }
}
