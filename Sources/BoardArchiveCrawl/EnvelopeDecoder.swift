import BoardArchiveModel
import BoardArchiveStore
import Foundation

/// Decodes the `{value, count, offset, limit, total}` envelope and keeps each item's JSON.
enum EnvelopeDecoder {
    enum Failure: Error {
        /// The body is not complete JSON (cut short in transit): worth retrying.
        case truncated(String)
    }

    /// Decodes one page; the start of a body that is not JSON is quoted in the error with `token` redacted first, so
    /// a body echoing the `Authorization` header cannot leak even a cut-off piece of the token.
    static func decode<Item: Decodable & Sendable>(
        _ type: Item.Type, from body: Data, request: String, board: Int?, offset: Int, redacting token: APIToken? = nil
    ) throws -> Page<Item> {
        let decoder = JSONDecoder()
        let envelope: Envelope<JSONValue>
        do {
            envelope = try decoder.decode(Envelope<JSONValue>.self, from: body)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            // A body that starts like JSON but does not parse was cut short in transit (worth retrying); anything
            // else (an HTML error page from a proxy, say) is not the API answering.
            let first = body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                throw Failure.truncated("\(body.count) bytes that are not complete JSON")
            }
            let text = String(decoding: body.prefix(64 << 10), as: UTF8.self)
            let start = (token?.redact(text) ?? text).prefix(40).replacingOccurrences(of: "\n", with: " ")
            throw CrawlError(request: request, reason: .undecodableBody("the body is not JSON: it starts with \"\(start)\""))
        } catch let error as DecodingError {
            throw CrawlError(request: request, reason: .undecodableBody("envelope field `\(fieldName(of: error))`: \(reason(of: error))"))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var items: [RawItem<Item>] = []
        items.reserveCapacity(envelope.value.count)
        var hash = ""
        for (index, value) in envelope.value.enumerated() {
            if let problem = wholeNumberProblem(in: value) ?? value.firstUnreadableString() {
                var post: Int?
                if case .object(let fields) = value, case .int(let id) = fields["postId"] { post = id }
                throw CrawlError(
                    request: request,
                    reason: .undecodableItem(board: board, offset: offset + index, post: post, field: problem.field, detail: problem.detail))
            }
            let json = try encoder.encode(value)
            do {
                items.append(RawItem(item: try decoder.decode(Item.self, from: json), json: String(decoding: json, as: UTF8.self)))
            } catch let error as DecodingError {
                var post: Int?
                if case .object(let fields) = value, case .int(let id) = fields["postId"] { post = id }
                throw CrawlError(
                    request: request,
                    reason: .undecodableItem(
                        board: board, offset: offset + index, post: post, field: fieldName(of: error), detail: reason(of: error)))
            }
            if let identified = items[index].item as? any ArchiveIdentified,
                let bad = identified.archiveIDs.first(where: { !ArchiveID.isValid($0.id) })
            {
                throw CrawlError(
                    request: request,
                    reason: .undecodableItem(
                        board: board, offset: offset + index, post: (items[index].item as? Post)?.postId, field: bad.field,
                        detail: "\(bad.id) is beyond ±\(ArchiveID.maximum) (2^53 − 1), the largest id the site's search can carry exactly"))
            }
            hash += items[index].json
        }
        return Page(
            items: items, count: envelope.count, offset: envelope.offset, limit: envelope.limit, total: envelope.total,
            contentHash: ContentHash.hex(of: hash))
    }

    static func fieldName(of error: DecodingError) -> String {
        let path: [any CodingKey]
        switch error {
        case .keyNotFound(let key, let context): path = context.codingPath + [key]
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): path = context.codingPath
        @unknown default: path = []
        }
        let names = path.filter { $0.intValue == nil }.map(\.stringValue)
        return names.isEmpty ? "(root)" : names.joined(separator: ".")
    }

    static func reason(of error: DecodingError) -> String {
        switch error {
        case .keyNotFound: return "the required key is missing"
        case .typeMismatch(let type, _): return "expected \(type)"
        case .valueNotFound(let type, _): return "expected \(type), found null"
        case .dataCorrupted(let context): return context.debugDescription
        @unknown default: return "unreadable"
        }
    }
}

/// Any JSON value, to keep an item's exact fields (including ones this version does not know).
enum JSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
    /// A string the decoder could not read (a lone surrogate escape, say), with its complaint: kept so the item's
    /// error can name the post and the field instead of failing the whole page.
    case unreadableString(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let detail = Self.unreadableString(in: container) {
            self = .unreadableString(detail)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .unreadableString(let detail):
            throw EncodingError.invalidValue(detail, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: detail))
        }
    }
}
