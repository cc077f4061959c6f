import BoardArchiveModel
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
        var value = value
        // Runs of bytes that need no escape (nearly all of a post) are copied whole.
        let mayEscape = Self.mayEscape
        value.withUTF8 { bytes in
            var run = 0
            var index = 0
            while index < bytes.count {
                // Skipped by a table of the bytes that may start an escape: the switch below costs more per byte.
                while index < bytes.count && !mayEscape[Int(bytes[index])] { index += 1 }
                guard index < bytes.count else { break }
                let byte = bytes[index]
                let escape: [UInt8]
                switch byte {
                case 0x22: escape = [0x5C, 0x22]
                case 0x5C: escape = [0x5C, 0x5C]
                case 0x0A: escape = [0x5C, UInt8(ascii: "n")]
                case 0x0D: escape = [0x5C, UInt8(ascii: "r")]
                case 0x09: escape = [0x5C, UInt8(ascii: "t")]
                case 0x00..<0x20, 0x7F: escape = Array("\\u00".utf8) + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)]]
                case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    escape = Array((bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                default:
                    index += 1
                    continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                output.append(contentsOf: escape)
                index += byte == 0xE2 ? 3 : 1
                run = index
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<bytes.count]))
        }
        output.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
    /// The bytes ``writeString(_:to:)`` looks at: control characters, `"`, `\\`, DEL and the lead byte of U+2028/U+2029.
    private static let mayEscape: [Bool] = (0..<256).map { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xE2 }
}

extension SearchJSON {
    /// The value of `json` when it holds only what the index's files hold (arrays, strings and integers), as
    /// `JSONSerialization` gives it (`[Any]`, `String`, `Int`); nil for anything else (objects, other numbers,
    /// literals) or text that is not JSON. The reader parses every index file it reads with it (the engine check reads
    /// thousands).
    static func parse(_ json: UnsafeBufferPointer<UInt8>) -> Any? {
        var reader = Reader(json: json)
        guard let value = reader.value() else { return nil }
        reader.skipSpace()
        return reader.index == json.count ? value : nil
    }

    private struct Reader {
        let json: UnsafeBufferPointer<UInt8>
        var index = 0

        mutating func skipSpace() {
            while index < json.count, json[index] == 0x20 || json[index] == 0x0A || json[index] == 0x0D || json[index] == 0x09 { index += 1 }
        }

        mutating func value() -> Any? {
            skipSpace()
            guard index < json.count else { return nil }
            switch json[index] {
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "["): return array()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return integer()
            default: return nil
            }
        }

        mutating func array() -> [Any]? {
            index += 1
            var items: [Any] = []
            skipSpace()
            if index < json.count, json[index] == UInt8(ascii: "]") {
                index += 1
                return items
            }
            while true {
                guard let item = value() else { return nil }
                items.append(item)
                skipSpace()
                guard index < json.count else { return nil }
                index += 1
                if json[index - 1] == UInt8(ascii: "]") { return items }
                guard json[index - 1] == UInt8(ascii: ",") else { return nil }
            }
        }

        mutating func integer() -> Int? {
            let negative = json[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            let start = index
            var value = 0
            while index < json.count, json[index] >= UInt8(ascii: "0"), json[index] <= UInt8(ascii: "9") {
                let (product, overflow) = value.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                value = product + Int(json[index] - UInt8(ascii: "0"))
                index += 1
            }
            // A fraction or an exponent is not an integer: the caller's general parser reads it.
            guard index > start, index == json.count || (json[index] != UInt8(ascii: ".") && json[index] | 0x20 != UInt8(ascii: "e")) else {
                return nil
            }
            return negative ? -value : value
        }

        mutating func hex4() -> UInt32? {
            guard index + 4 <= json.count else { return nil }
            var value: UInt32 = 0
            for offset in 0..<4 {
                guard let digit = Character(Unicode.Scalar(json[index + offset])).hexDigitValue else { return nil }
                value = value << 4 | UInt32(digit)
            }
            index += 4
            return value
        }

        mutating func string() -> String? {
            index += 1
            var bytes: [UInt8] = []
            var run = index
            while index < json.count {
                let byte = json[index]
                if byte == UInt8(ascii: "\"") {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: json[run..<index]))
                    index += 1
                    return String(validating: bytes, as: UTF8.self)
                }
                guard byte == UInt8(ascii: "\\") else {
                    guard byte >= 0x20 else { return nil }
                    index += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: json[run..<index]))
                index += 1
                guard index < json.count else { return nil }
                let escaped = json[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(escaped)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "u"):
                    guard var value = hex4() else { return nil }
                    if value >= 0xD800 && value < 0xDC00 {
                        guard index + 2 <= json.count, json[index] == UInt8(ascii: "\\"), json[index + 1] == UInt8(ascii: "u") else { return nil }
                        index += 2
                        guard let low = hex4(), low >= 0xDC00 && low < 0xE000 else { return nil }
                        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(value) else { return nil }
                    bytes.append(contentsOf: String(Character(scalar)).utf8)
                default: return nil
                }
                run = index
            }
            return nil
        }
    }

    /// ``parse(_:)`` of `data`, else `JSONSerialization`'s reading of it (fragments allowed); nil when it is not JSON.
    static func parse(_ data: Data) -> Any? {
        if let value = data.withUnsafeBytes({ parse($0.bindMemory(to: UInt8.self)) }) { return value }
        return try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
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
    ///
    /// Read on bytes: the envelope is ASCII and the literal escapes only `\\` and `'`, so unescaping byte by byte is
    /// unescaping character by character.
    static func unwrap(_ data: Data) -> (shardId: String, json: Data, declaredBytes: Int)? {
        let bytes = [UInt8](data)
        let (head, separator, tail) = (Array(prefix.utf8), Array(middle.utf8), Array(suffix.utf8))
        let sizeMark = Array(sizeSeparator.utf8)
        guard String(validating: bytes, as: UTF8.self) != nil, bytes.count >= head.count + tail.count,
            bytes.starts(with: head), bytes.suffix(tail.count).elementsEqual(tail),
            let middleStart = Bytes.firstIndex(of: separator, in: bytes, from: head.count),
            let sizeStart = lastIndex(of: sizeMark, in: bytes), middleStart + separator.count <= sizeStart,
            let declared = Int(String(decoding: bytes[(sizeStart + sizeMark.count)..<(bytes.count - tail.count)], as: UTF8.self))
        else { return nil }
        let shardId = String(decoding: bytes[head.count..<middleStart], as: UTF8.self)
        var json: [UInt8] = []
        json.reserveCapacity(sizeStart - middleStart)
        var escaping = false
        for byte in bytes[(middleStart + separator.count)..<sizeStart] {
            if escaping || byte != 0x5C {
                json.append(byte)
                escaping = false
            } else {
                escaping = true
            }
        }
        return (shardId, Data(json), declared)
    }

    /// Where `pattern` last occurs in `bytes`.
    private static func lastIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        for index in stride(from: bytes.count - pattern.count, through: 0, by: -1) where bytes[index..<(index + pattern.count)].elementsEqual(pattern)
        {
            return index
        }
        return nil
    }
}
