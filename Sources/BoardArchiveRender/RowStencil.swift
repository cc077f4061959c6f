/// A row rendered once by Mustache with placeholders where its per-use texts go, then filled many times by concatenation.
///
/// A post listed under many keywords has a row on each keyword's page that differs only in its highlights
/// (`titleHTML`, `writerHTML`, `snippetHTML`). Rendering the row template once per post with a placeholder in each of
/// those keys, and filling the placeholders per keyword, gives the same bytes as rendering the row per keyword,
/// as long as the template only prints those keys (``TemplateRenderer/StencilPlan`` checks it when the templates load).
///
/// The placeholders and the cutting are ``Stencil``'s (`U+0000`, the slot's number, `&`, `U+0000`; the `&` tells
/// an escaped `{{x}}` from a raw `{{{x}}}`). The store keeps no `U+0000` in text (``ArchiveStore`` replaces it), and
/// a post whose row has one anyway is rendered without a stencil.
package struct RowStencil: Sendable {
    /// The keys a stencil leaves open, in slot order.
    package static let slots = ["titleHTML", "writerHTML", "snippetHTML"]

    /// The placeholder of slot `index` as the context's value.
    static func placeholder(_ index: Int) -> String {
        Stencil.placeholder(index)
    }

    /// The placeholders of every slot, keyed as the row context keys them.
    package static let placeholders: [String: String] = Dictionary(uniqueKeysWithValues: slots.indices.map { (slots[$0], placeholder($0)) })

    private let stencil: Stencil

    /// The stencil of `rendered`, a row rendered with ``placeholders``; nil when it holds a `U+0000` that is no
    /// placeholder (then the row must be rendered whole).
    package init?(rendered: String) {
        guard let stencil = Stencil(rendered: rendered, leafCount: Self.slots.count) else { return nil }
        self.stencil = stencil
    }

    /// The row with slot `i` filled with `values[i]`, escaped where the template escaped it.
    package func filled(with values: [String]) -> String {
        stencil.filled(with: values)
    }
}
