/// Text of zero-padded numbers and separators, such as `2024-05-01T09:30:00Z`: the timestamps and labels of every row
/// and page, written straight into the string's storage (made by interpolation, each number was a string of its own).
enum DigitText {
    /// One number, zero-padded to `width` digits, and the separator after it (nil: none).
    struct Field {
        var value: Int
        var width: Int
        var after: Unicode.Scalar?

        init(_ value: Int, _ width: Int = 2, _ after: Unicode.Scalar? = nil) {
            self.value = value
            self.width = width
            self.after = after
        }
    }

    /// `fields` one after another. A number longer than its width is written whole, and a negative one as `String`
    /// writes it with zeros before it up to the width (-5 in 4 digits: `00-5`), as the labels always did.
    static func make(_ fields: [Field]) -> String {
        var length = 0
        for field in fields {
            guard field.value >= 0, field.width <= 18, field.value < limit(of: field.width), field.after.map(\.isASCII) ?? true else {
                return padded(fields)
            }
            length += field.width + (field.after == nil ? 0 : 1)
        }
        return String(unsafeUninitializedCapacity: length) { buffer in
            var offset = 0
            for field in fields {
                var value = field.value
                for index in stride(from: offset + field.width - 1, through: offset, by: -1) {
                    buffer[index] = 0x30 + UInt8(value % 10)
                    value /= 10
                }
                offset += field.width
                if let after = field.after {
                    buffer[offset] = UInt8(after.value)
                    offset += 1
                }
            }
            return offset
        }
    }

    /// The first number of `width + 1` digits.
    private static func limit(of width: Int) -> Int {
        var limit = 1
        for _ in 0..<width { limit *= 10 }
        return limit
    }

    /// ``make(_:)`` through `String`s, for numbers that do not fit their width.
    private static func padded(_ fields: [Field]) -> String {
        var text = ""
        for field in fields {
            let digits = String(field.value)
            text += String(repeating: "0", count: max(0, field.width - digits.count)) + digits
            if let after = field.after { text.unicodeScalars.append(after) }
        }
        return text
    }
}
