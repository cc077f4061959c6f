/// A board as the API lists it under `GET /boards`.
public struct Board: Codable, Sendable, Equatable, Hashable {
    /// What the signed-in user may do on the board.
    public struct Capability: Codable, Sendable, Equatable, Hashable {
        public var writable: Bool
        public var manageable: Bool

        public init(writable: Bool, manageable: Bool) {
            self.writable = writable
            self.manageable = manageable
        }
    }

    public var boardId: Int
    public var displayName: String
    /// Only `normal` is known; other values are kept as they are.
    public var boardType: String?
    public var isFavorite: Bool?
    public var hasNewPost: Bool?
    /// The boards' display order; a board without one sorts last.
    public var orderNo: Int?
    public var capability: Capability?

    public init(
        boardId: Int, displayName: String, boardType: String? = "normal", isFavorite: Bool? = false, hasNewPost: Bool? = false,
        orderNo: Int?, capability: Capability? = nil
    ) {
        self.boardId = boardId
        self.displayName = displayName
        self.boardType = boardType
        self.isFavorite = isFavorite
        self.hasNewPost = hasNewPost
        self.orderNo = orderNo
        self.capability = capability
    }
}
