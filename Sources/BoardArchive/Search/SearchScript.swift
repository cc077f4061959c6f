import Foundation

/// A value of the index's JSON payloads, serialised deterministically (object keys sorted, no whitespace).
enum SearchJSON: Equatable {
    case int(Int)
    case string(String)
    case array([SearchJSON])
    case object([(String, SearchJSON)])

    static func == (lhs: SearchJSON, rhs: SearchJSON) -> Bool { lhs.text == rhs.text }

    /// The compact JSON text.
    var text: String {
        var output: [UInt8] = []
        write(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    func write(to output: inout [UInt8]) {
        switch self {
        case .int(let value): output.append(contentsOf: String(value).utf8)
        case .string(let value): SearchJSON.writeString(value, to: &output)
        case .array(let items):
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                item.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.sorted(by: { $0.0 < $1.0 }).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                SearchJSON.writeString(member.0, to: &output)
                output.append(UInt8(ascii: ":"))
                member.1.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Writes `value` as a JSON string literal, escaping only what JSON requires (and U+2028/U+2029, DEL).
    static func writeString(_ value: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        let hexDigits = Array("0123456789abcdef".utf8)
        var bytes = Array(value.utf8)
        var index = 0
        bytes.append(0)  // sentinel so the U+2028 look-ahead never runs off the end
        let count = bytes.count - 1
        while index < count {
            let byte = bytes[index]
            switch byte {
            case 0x22: output.append(contentsOf: [0x5C, 0x22])
            case 0x5C: output.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x00..<0x20, 0x7F:
                output.append(contentsOf: Array("\\u00".utf8) + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)]])
            case 0xE2 where index + 2 < count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                output.append(contentsOf: Array((bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8))
                index += 2
            default: output.append(byte)
            }
            index += 1
        }
        output.append(UInt8(ascii: "\""))
    }
}

/// The classic-script envelope of every index file: `BoardArchiveSearch.load("id",JSON.parse('…'),bytes);`.
///
/// Classic scripts are the one way to load data that works from `file://`; `JSON.parse` of a string literal
/// parses faster than an object literal. The JSON text is put in a single-quoted literal, so `\` and `'` are escaped.
/// The last argument is the file's own size in bytes: a browser cannot see the size of a script it loaded from
/// `file://`, and `search.js` needs it to keep a query within its byte budget.
enum SearchScript {
    static let prefix = "BoardArchiveSearch.load(\""
    static let middle = "\",JSON.parse('"
    static let sizeSeparator = "'),"
    static let suffix = ");\n"

    /// The script bytes that hand `payload` to the loader under `shardId`.
    static func wrap(shardId: String, payload: SearchJSON) -> Data {
        var json: [UInt8] = []
        payload.write(to: &json)
        var bytes = Array((prefix + shardId + middle).utf8)
        bytes.reserveCapacity(bytes.count + json.count + json.count / 16 + 32)
        for byte in json {
            if byte == 0x5C || byte == 0x27 { bytes.append(0x5C) }
            bytes.append(byte)
        }
        bytes.append(contentsOf: sizeSeparator.utf8)
        // The size counts its own digits: the smallest digit count that fits the total.
        let base = bytes.count + suffix.utf8.count
        var digits = 1
        while String(base + digits).count != digits { digits += 1 }
        bytes.append(contentsOf: String(base + digits).utf8)
        bytes.append(contentsOf: suffix.utf8)
        return Data(bytes)
    }

    /// The shard id, the JSON text and the declared size of a script made by `wrap`, or `nil` when it is not one.
    static func unwrap(_ data: Data) -> (shardId: String, json: Data, declaredBytes: Int)? {
        guard let text = String(data: data, encoding: .utf8), text.hasPrefix(prefix), text.hasSuffix(suffix),
            let middleRange = text.range(of: middle), let sizeRange = text.range(of: sizeSeparator, options: .backwards),
            middleRange.upperBound <= sizeRange.lowerBound,
            let declared = Int(text[sizeRange.upperBound..<text.index(text.endIndex, offsetBy: -suffix.count)])
        else { return nil }
        let shardId = String(text[text.index(text.startIndex, offsetBy: prefix.count)..<middleRange.lowerBound])
        let literal = text[middleRange.upperBound..<sizeRange.lowerBound]
        var json = ""
        var escaping = false
        for scalar in literal.unicodeScalars {
            if escaping {
                json.unicodeScalars.append(scalar)
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                json.unicodeScalars.append(scalar)
            }
        }
        return (shardId, Data(json.utf8), declared)
    }
}
