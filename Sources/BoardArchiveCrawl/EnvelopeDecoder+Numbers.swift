import Foundation

extension EnvelopeDecoder {
    /// The fields of the contract's items that hold whole numbers (ids and counts).
    static let wholeNumberFields = ["postId", "boardId", "parentPostId", "viewCount", "commentsCount", "attachmentsCount", "orderNo"]

    /// The first whole-number field of an item that holds a fraction (`1.5`) or a number too large for a 64-bit
    /// integer, with what was found.
    ///
    /// Such a number reaches the item as a `Double`, and Foundation's decoder then reports only "The given data was
    /// not valid JSON" for the whole item; this names the field instead.
    static func wholeNumberProblem(in value: JSONValue) -> (field: String, detail: String)? {
        guard case .object(let fields) = value else { return nil }
        for name in wholeNumberFields {
            if case .double(let number) = fields[name] {
                return (name, "expected a whole number from −2^63 to 2^63 − 1, found \(number)")
            }
        }
        return nil
    }
}

extension JSONValue {
    /// The complaint of a string value the decoder cannot read, or nil when the value is not such a string.
    ///
    /// A value that decodes as no other JSON kind and fails as a string other than by a type mismatch is a string
    /// with invalid contents (a lone surrogate such as `"\ud800"`).
    static func unreadableString(in container: any SingleValueDecodingContainer) -> String? {
        do {
            _ = try container.decode(String.self)
            return nil
        } catch DecodingError.typeMismatch {
            return nil
        } catch DecodingError.dataCorrupted(let context) {
            return context.debugDescription
        } catch {
            return "\(error)"
        }
    }

    /// The dotted path and complaint of the first unreadable string in this value (object keys only, as the
    /// crawler's field names are), or nil.
    func firstUnreadableString(at path: [String] = []) -> (field: String, detail: String)? {
        switch self {
        case .unreadableString:
            // The decoder's own complaint names its internals (cannotConvertInputStringDataToUTF8(location: …)).
            return (path.isEmpty ? "(root)" : path.joined(separator: "."), "the text is not valid Unicode (invalid UTF-8 or a lone surrogate)")
        case .array(let values):
            for value in values { if let found = value.firstUnreadableString(at: path) { return found } }
            return nil
        case .object(let fields):
            for key in fields.keys.sorted() { if let found = fields[key]?.firstUnreadableString(at: path + [key]) { return found } }
            return nil
        case .null, .bool, .int, .double, .string:
            return nil
        }
    }
}
