/// The list envelope every API list answers with: `{value, count, offset, limit, total}`.
public struct Envelope<Item: Codable & Sendable>: Codable, Sendable {
    public var value: [Item]
    public var count: Int
    public var offset: Int
    public var limit: Int
    public var total: Int

    public init(value: [Item], count: Int, offset: Int, limit: Int, total: Int) {
        self.value = value
        self.count = count
        self.offset = offset
        self.limit = limit
        self.total = total
    }
}

extension Envelope: Equatable where Item: Equatable {}
