import Foundation

/// The markup of an inert link, written into the cmark tree as marker characters and expanded after rendering.
///
/// cmark-gfm's containers differ in what they may hold (a table cell takes text, code, emphasis, links and a few
/// more, but no custom inline node), while a text node fits wherever a link does. So the renderer writes each piece
/// of markup as a text node holding one Unicode noncharacter (U+FDD0…U+FDD3, reserved for a program's internal use),
/// and swaps every marker for its fixed HTML once cmark has rendered the page. Markers in a post's own text are
/// replaced by U+FFFD before parsing, so a post can never produce markup this way.
enum InertLinkMarkup {
    /// Opens a link's label: `<span class="inert-link">`.
    static let openLink = marker(0xFDD0)
    /// Opens an image's description: `<span class="inert-link inert-image">`.
    static let openImage = marker(0xFDD1)
    /// Opens the shown address: ` <span class="link-url">` (with its leading space).
    static let openAddress = marker(0xFDD2)
    /// Closes any of them: `</span>`.
    static let close = marker(0xFDD3)
    /// Brackets the number of a kept picture (``MarkdownRenderer/Pictures``): `U+FDD4 <n> U+FDD4` becomes its `<img>`.
    static let picture = marker(0xFDD4)

    /// The noncharacter `value` as a string (Swift rejects noncharacters in `\u{…}` literals).
    static func marker(_ value: UInt32) -> String {
        Unicode.Scalar(value).map { String(Character($0)) } ?? "\u{FFFD}"
    }

    /// Every marker with the HTML it stands for.
    static let markup: [(marker: String, html: String)] = [
        (openLink, "<span class=\"inert-link\">"), (openImage, "<span class=\"inert-link inert-image\">"),
        (openAddress, " <span class=\"link-url\">"), (close, "</span>"),
    ]

    /// `text` with every marker (U+FDD0…U+FDEF, the whole reserved range) replaced by U+FFFD.
    static func withoutMarkers(_ text: String) -> String {
        // Markers are `EF B7 90`…`EF B7 AF` in UTF-8: the bytes are scanned first (decoding every scalar of every body to
        // look for them showed in the build's profile), the scalars only when one is there.
        guard hasMarker(in: text, upTo: 0xAF) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(isMarker(scalar) ? "\u{FFFD}" : scalar) }
        return String(scalars)
    }

    /// Rendered HTML with every marker expanded to its markup.
    ///
    /// One pass over the UTF-8 (markers are `EF B7 90`…`EF B7 93`); Foundation's `replacingOccurrences`, four times
    /// per post page, showed in the build's profile.
    static func expandMarkers(in html: String, pictures: [String] = []) -> String {
        guard hasMarker(in: html, upTo: 0x94) else { return html }
        let bytes = Array(html.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 64)
        var index = 0
        while index < bytes.count {
            if index + 2 < bytes.count, isMarkerStart(bytes, at: index) {
                output.append(contentsOf: markupBytes[Int(bytes[index + 2] - 0x90)])
                index += 3
            } else if index + 2 < bytes.count, bytes[index] == 0xEF, bytes[index + 1] == 0xB7, bytes[index + 2] == 0x94 {
                // A picture: its number in ASCII digits up to the closing marker (only the renderer writes these).
                var number = 0
                index += 3
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                    number = number &* 10 &+ Int(bytes[index] - 0x30)
                    index += 1
                }
                if index + 2 < bytes.count, bytes[index] == 0xEF, bytes[index + 1] == 0xB7, bytes[index + 2] == 0x94 { index += 3 }
                if number >= 0, number < pictures.count { output.append(contentsOf: pictures[number].utf8) }
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The HTML of U+FDD0…U+FDD3, in that order.
    private static let markupBytes = markup.map { Array($0.html.utf8) }

    /// Whether `text` holds `EF B7 xx` with `xx` in `0x90...last`, read from its UTF-8 without copying it.
    private static func hasMarker(in text: String, upTo last: UInt8) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= 3 else { return false }
            var index = 0
            while index + 2 < bytes.count {
                if bytes[index] == 0xEF && bytes[index + 1] == 0xB7 && (0x90...last).contains(bytes[index + 2]) { return true }
                index += 1
            }
            return false
        }
    }

    private static func isMarkerStart(_ bytes: [UInt8], at index: Int) -> Bool {
        bytes[index] == 0xEF && bytes[index + 1] == 0xB7 && (0x90...0x93).contains(bytes[index + 2])
    }

    private static func isMarker(_ scalar: Unicode.Scalar) -> Bool {
        (0xFDD0...0xFDEF).contains(scalar.value)
    }
}
