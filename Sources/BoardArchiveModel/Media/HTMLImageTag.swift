/// An `<img>` tag found in raw HTML of a post body: its `src` and `alt` attributes, entity-decoded.
///
/// The scan follows the HTML tokenizer closely enough for post bodies: every tag's attributes are read with their quoting
/// (so a `>` or `<img` inside another tag's quoted value is not a tag), comments and the text of `<script>` and `<style>`
/// are skipped, and a tag that the input ends inside is dropped, as browsers drop it.
public struct HTMLImageTag: Sendable, Equatable {
    /// The `src` attribute, entity-decoded, without leading or trailing ASCII whitespace; never empty.
    public var source: String
    /// The `alt` attribute, entity-decoded; nil when the tag has none, empty when it has an empty one.
    public var alt: String?

    /// A tag with `source` and `alt`.
    public init(source: String, alt: String? = nil) {
        self.source = source
        self.alt = alt
    }

    /// Every `<img …>` tag in `html`, in order, that has a non-empty `src`.
    ///
    /// Tag and attribute names are case-insensitive; values may be double-quoted, single-quoted or unquoted; `&amp;`,
    /// `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#39;`, `&#NN;` and `&#xHH;` are decoded in values; the first of repeated
    /// attributes counts. Tags inside HTML comments are ignored, and `<imgx>` or `<image>` are not img tags. Linear time,
    /// total on any input.
    public static func all(in html: String) -> [HTMLImageTag] {
        var scanner = Scanner(bytes: Array(html.utf8))
        return scanner.imageTags()
    }
}

extension HTMLImageTag {
    /// One pass over the UTF-8 bytes of an HTML text; every step moves `offset` forward.
    struct Scanner {
        let bytes: [UInt8]
        var offset = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// The image tags from `offset` to the end.
        mutating func imageTags() -> [HTMLImageTag] {
            var tags: [HTMLImageTag] = []
            while let open = nextOpenBracket() {
                offset = open + 1
                if matches("!--") {
                    guard skipComment() else { break }
                } else if matches("!") || matches("?") || (matches("/") && !isLetter(at: offset + 1)) {
                    // A doctype, a bogus comment or a stray `</`: everything up to the next `>`.
                    guard let close = firstIndex(of: UInt8(ascii: ">"), from: offset) else { break }
                    offset = close + 1
                } else if matches("/") || isLetter(at: offset) {
                    let isEndTag = matches("/")
                    if isEndTag { offset += 1 }
                    let name = readTagName()
                    guard let attributes = readAttributes() else { break }  // the input ends inside the tag
                    guard !isEndTag else { continue }  // an end tag's attributes are read only to move past them
                    if name == "img", let source = attributes.source.map(Self.trimmed), !source.isEmpty {
                        tags.append(HTMLImageTag(source: source, alt: attributes.alt))
                    } else if name == "script" || name == "style" {
                        guard skipRawText(until: name) else { break }
                    }
                }
                // Anything else: a `<` that starts no tag is text.
            }
            return tags
        }

        /// The index of the next `<` from `offset`, or nil.
        func nextOpenBracket() -> Int? { firstIndex(of: UInt8(ascii: "<"), from: offset) }

        /// The index of the first `byte` at or after `start`, or nil.
        func firstIndex(of byte: UInt8, from start: Int) -> Int? {
            var index = start
            while index < bytes.count {
                if bytes[index] == byte { return index }
                index += 1
            }
            return nil
        }

        /// Whether the bytes at `offset` are the ASCII `text`, ignoring ASCII case (`text` is lowercase).
        func matches(_ text: String, at start: Int? = nil) -> Bool {
            var index = start ?? offset
            for expected in text.utf8 {
                guard index < bytes.count, Self.lowercased(bytes[index]) == expected else { return false }
                index += 1
            }
            return true
        }

        /// Whether the byte at `index` is an ASCII letter.
        func isLetter(at index: Int) -> Bool {
            guard index < bytes.count else { return false }
            let byte = Self.lowercased(bytes[index])
            return byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
        }

        /// Moves past a comment whose `<!--` ends before `offset`; false when it runs to the end of the input.
        mutating func skipComment() -> Bool {
            offset += 3
            // `<!-->` and `<!--->` are empty comments.
            if matches(">") {
                offset += 1
                return true
            }
            if matches("->") {
                offset += 2
                return true
            }
            while let dash = firstIndex(of: UInt8(ascii: "-"), from: offset) {
                offset = dash + 1
                if matches("->") {
                    offset += 2
                    return true
                }
                if matches("-!>") {
                    offset += 3
                    return true
                }
            }
            offset = bytes.count
            return false
        }

        /// Moves to the `<` of the end tag of a `<script>` or `<style>` element, past its text; false when the text runs to
        /// the end of the input.
        mutating func skipRawText(until name: String) -> Bool {
            while let open = nextOpenBracket() {
                offset = open + 1
                if matches("/" + name), !isTagNameByte(at: offset + 1 + name.utf8.count) {
                    offset = open  // the end tag itself is read as any tag
                    return true
                }
            }
            offset = bytes.count
            return false
        }

        /// Whether the byte at `index` would continue a tag name (neither whitespace, `/` nor `>`, nor past the end).
        func isTagNameByte(at index: Int) -> Bool {
            guard index < bytes.count else { return false }
            let byte = bytes[index]
            return !Self.isWhitespace(byte) && byte != UInt8(ascii: "/") && byte != UInt8(ascii: ">")
        }

        /// The lowercased tag name at `offset`, moving past it.
        mutating func readTagName() -> String {
            let start = offset
            while isTagNameByte(at: offset) { offset += 1 }
            return String(decoding: bytes[start..<offset].map(Self.lowercased), as: UTF8.self)
        }

        /// The `src` and `alt` values of the tag whose attributes start at `offset`, moving past its `>`; nil when the
        /// input ends first.
        mutating func readAttributes() -> (source: String?, alt: String?)? {
            var source: String?
            var alt: String?
            var seen: Set<String> = []
            while true {
                while offset < bytes.count, Self.isWhitespace(bytes[offset]) || bytes[offset] == UInt8(ascii: "/") { offset += 1 }
                guard offset < bytes.count else { return nil }
                if bytes[offset] == UInt8(ascii: ">") {
                    offset += 1
                    return (source, alt)
                }
                // A name runs to whitespace, `/`, `>` or `=`; an `=` first is part of it.
                let nameStart = offset
                offset += 1
                while isTagNameByte(at: offset), bytes[offset] != UInt8(ascii: "=") { offset += 1 }
                let name = String(decoding: bytes[nameStart..<offset].map(Self.lowercased), as: UTF8.self)
                while offset < bytes.count, Self.isWhitespace(bytes[offset]) { offset += 1 }
                var value: ArraySlice<UInt8> = []
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "=") {
                    offset += 1
                    while offset < bytes.count, Self.isWhitespace(bytes[offset]) { offset += 1 }
                    guard offset < bytes.count else { return nil }
                    let quote = bytes[offset]
                    if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                        guard let close = firstIndex(of: quote, from: offset + 1) else { return nil }
                        value = bytes[(offset + 1)..<close]
                        offset = close + 1
                    } else {
                        let start = offset
                        while offset < bytes.count, !Self.isWhitespace(bytes[offset]), bytes[offset] != UInt8(ascii: ">") { offset += 1 }
                        value = bytes[start..<offset]
                    }
                }
                guard seen.insert(name).inserted else { continue }  // the first of repeated attributes counts
                if name == "src" {
                    source = Self.decodingEntities(value)
                } else if name == "alt" {
                    alt = Self.decodingEntities(value)
                }
            }
        }

        /// `byte` with an ASCII capital letter lowercased.
        static func lowercased(_ byte: UInt8) -> UInt8 {
            byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
        }

        /// Space, tab, line feed, form feed or carriage return: HTML's whitespace.
        static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
        }

        /// `text` without leading and trailing HTML whitespace.
        static func trimmed(_ text: String) -> String {
            let bytes = Array(text.utf8)
            var start = 0
            var end = bytes.count
            while start < end, isWhitespace(bytes[start]) { start += 1 }
            while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }

        /// The named character references an attribute value may hold here, by name (case matters, as in HTML).
        static let namedReferences: [String: UInt8] = [
            "amp": UInt8(ascii: "&"), "AMP": UInt8(ascii: "&"), "lt": UInt8(ascii: "<"), "LT": UInt8(ascii: "<"),
            "gt": UInt8(ascii: ">"), "GT": UInt8(ascii: ">"), "quot": UInt8(ascii: "\""), "QUOT": UInt8(ascii: "\""),
            "apos": UInt8(ascii: "'"),
        ]

        /// `value` with `&name;` (see ``namedReferences``), `&#NN;` and `&#xHH;` decoded; a numeric reference may lack its
        /// `;`, one for no character (0, a surrogate, above U+10FFFF) becomes U+FFFD, and anything else stays as written.
        static func decodingEntities(_ value: ArraySlice<UInt8>) -> String {
            guard value.contains(UInt8(ascii: "&")) else { return String(decoding: value, as: UTF8.self) }
            var output: [UInt8] = []
            output.reserveCapacity(value.count)
            var index = value.startIndex
            while index < value.endIndex {
                let byte = value[index]
                guard byte == UInt8(ascii: "&") else {
                    output.append(byte)
                    index += 1
                    continue
                }
                if let found = reference(in: value, at: index) {
                    output.append(contentsOf: found.bytes)
                    index = found.end
                } else {
                    output.append(byte)
                    index += 1
                }
            }
            return String(decoding: output, as: UTF8.self)
        }

        /// The UTF-8 bytes of the character reference whose `&` is at `start`, and the index after it; nil when there is none.
        static func reference(in value: ArraySlice<UInt8>, at start: Int) -> (bytes: [UInt8], end: Int)? {
            var index = start + 1
            guard index < value.endIndex else { return nil }
            if value[index] == UInt8(ascii: "#") {
                index += 1
                let hexadecimal = index < value.endIndex && lowercased(value[index]) == UInt8(ascii: "x")
                if hexadecimal { index += 1 }
                let digitsStart = index
                var scalar: UInt32 = 0
                while index < value.endIndex, let digit = digitValue(value[index], hexadecimal: hexadecimal) {
                    scalar = min(scalar * (hexadecimal ? 16 : 10) + digit, 0x11_0000)  // capped: no overflow on long runs
                    index += 1
                }
                guard index > digitsStart else { return nil }
                if index < value.endIndex, value[index] == UInt8(ascii: ";") { index += 1 }
                let character = Unicode.Scalar(scalar).flatMap { scalar == 0 ? nil : $0 } ?? "\u{FFFD}"
                return (Array(String(character).utf8), index)
            }
            let nameStart = index
            while index < value.endIndex, index - nameStart < 8, isAlphanumeric(value[index]) { index += 1 }
            guard index < value.endIndex, value[index] == UInt8(ascii: ";"),
                let decoded = namedReferences[String(decoding: value[nameStart..<index], as: UTF8.self)]
            else { return nil }
            return ([decoded], index + 1)
        }

        /// The value of an ASCII digit (hexadecimal or decimal), or nil.
        static func digitValue(_ byte: UInt8, hexadecimal: Bool) -> UInt32? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where hexadecimal: UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where hexadecimal: UInt32(byte - UInt8(ascii: "A") + 10)
            default: nil
            }
        }

        /// Whether `byte` is an ASCII letter or digit.
        static func isAlphanumeric(_ byte: UInt8) -> Bool {
            digitValue(byte, hexadecimal: false) != nil || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lowercased(byte))
        }
    }
}
