/// Feeds an `Encodable` value into a ``BuildDigest``, field by field, in encoding order: the digest of a page's input
/// (``PageInput``) is derived from the value itself, so a field added to an input is in the digest by construction.
///
/// Every value is written with a tag of its kind, so that no two different values of one type feed the same words: a
/// missing optional (`encodeIfPresent` with nil) differs from every value, and a list is prefixed by its length when it
/// ends. Only the kinds page inputs use are supported (`Bool`, `Int`, `UInt64`, `String`, optionals, lists and nested
/// values); any other is a programming error.
final class DigestEncoder: Encoder {
    /// The digest so far. Unchecked: one encoder feeds one digest on one thread, and the run-time exclusivity check of
    /// every access showed in the profile.
    @exclusivity(unchecked) private(set) var state: BuildDigest
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Starts from `base` (the build's shared inputs).
    init(base: BuildDigest) {
        state = base
    }

    /// The digest of `value` after `base`.
    static func digest(of value: some Encodable, base: BuildDigest) -> BuildDigest {
        let encoder = DigestEncoder(base: base)
        do { try value.encode(to: encoder) } catch { preconditionFailure("a page input cannot fail to encode: \(error)") }
        return encoder.state
    }

    private enum Tag: Int {
        case absent = 1, present, int, text, flag, listEnd, word
    }

    fileprivate func absent() { state.add(Tag.absent.rawValue) }
    fileprivate func present() { state.add(Tag.present.rawValue) }
    fileprivate func add(_ value: Int) {
        state.add(Tag.int.rawValue)
        state.add(value)
    }
    fileprivate func add(_ value: String) {
        state.add(Tag.text.rawValue)
        state.add(value)
    }
    fileprivate func add(_ value: Bool) {
        state.add(Tag.flag.rawValue)
        state.add(value)
    }
    fileprivate func add(_ value: UInt64) {
        state.add(Tag.word.rawValue)
        state.add(Int(bitPattern: UInt(value)))
    }
    fileprivate func endList(count: Int) {
        state.add(Tag.listEnd.rawValue)
        state.add(count)
    }
    /// Encodes a nested value: a list of plain values (the kinds pages list: ids, hashes, names, flags, optional ids) is
    /// fed here at once, in exactly the words its items one by one would give (each item's tag and value, then the list's
    /// end and count), without a container and a generic call per item; anything else encodes itself.
    /// At 1M posts a night digests about 3,000,000 such items (search blocks' ids, hashes and names; the rows of listing
    /// and keyword pages).
    fileprivate func encodeNested<T: Encodable>(_ value: T) throws {
        if let list = Self.list(value, of: Int.self) {
            feed(list, add)
        } else if let list = Self.list(value, of: String.self) {
            feed(list, add)
        } else if let list = Self.list(value, of: Bool.self) {
            feed(list, add)
        } else if let list = Self.list(value, of: UInt64.self) {
            feed(list, add)
        } else if let list = Self.list(value, of: Int?.self) {
            feed(list) { item in if let item { add(item) } else { absent() } }
        } else {
            try value.encode(to: self)
        }
    }
    /// `value` as a list of `Item`, when that is its type (a comparison of types, no cast).
    @inline(__always)
    private static func list<T, Item>(_ value: T, of item: Item.Type) -> [Item]? {
        T.self == [Item].self ? unsafeBitCast(value, to: [Item].self) : nil
    }
    /// Feeds each item of `list`, then the list's end and count.
    @inline(__always)
    private func feed<Item>(_ list: [Item], _ item: (Item) -> Void) {
        for element in list { item(element) }
        endList(count: list.count)
    }
    fileprivate func unsupported(_ type: Any.Type) -> Never {
        preconditionFailure("DigestEncoder does not encode \(type): give the page input an Int, UInt64, String or Bool")
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Keyed<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { List(encoder: self) }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: DigestEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) { encoder.absent() }
        mutating func encode(_ value: Bool, forKey key: Key) { encoder.add(value) }
        mutating func encode(_ value: String, forKey key: Key) { encoder.add(value) }
        mutating func encode(_ value: Int, forKey key: Key) { encoder.add(value) }
        mutating func encode(_ value: UInt64, forKey key: Key) { encoder.add(value) }
        mutating func encode(_ value: Double, forKey key: Key) { encoder.unsupported(Double.self) }
        mutating func encode(_ value: Float, forKey key: Key) { encoder.unsupported(Float.self) }
        mutating func encode(_ value: Int8, forKey key: Key) { encoder.unsupported(Int8.self) }
        mutating func encode(_ value: Int16, forKey key: Key) { encoder.unsupported(Int16.self) }
        mutating func encode(_ value: Int32, forKey key: Key) { encoder.unsupported(Int32.self) }
        mutating func encode(_ value: Int64, forKey key: Key) { encoder.unsupported(Int64.self) }
        mutating func encode(_ value: UInt, forKey key: Key) { encoder.unsupported(UInt.self) }
        mutating func encode(_ value: UInt8, forKey key: Key) { encoder.unsupported(UInt8.self) }
        mutating func encode(_ value: UInt16, forKey key: Key) { encoder.unsupported(UInt16.self) }
        mutating func encode(_ value: UInt32, forKey key: Key) { encoder.unsupported(UInt32.self) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encoder.encodeNested(value) }
        // Each optional says whether it is there: `(nil, 5)` and `(5, nil)` must not feed the same words. Written out per
        // type: a generic helper looked up its type's metadata at run time, per value (a tenth of the encoder's time).
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) {
            guard let value else { return encoder.absent() }
            encoder.present()
            encoder.add(value)
        }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) {
            guard let value else { return encoder.absent() }
            encoder.present()
            encoder.add(value)
        }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) {
            guard let value else { return encoder.absent() }
            encoder.present()
            encoder.add(value)
        }
        mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) {
            guard let value else { return encoder.absent() }
            encoder.present()
            encoder.add(value)
        }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            guard let value else { return encoder.absent() }
            encoder.present()
            try encoder.encodeNested(value)
        }
        mutating func nestedContainer<Nested: CodingKey>(keyedBy keyType: Nested.Type, forKey key: Key) -> KeyedEncodingContainer<Nested> {
            encoder.container(keyedBy: Nested.self)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { encoder.unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }

    /// A list: its items, then its length (so that `[a] + [b, c]` and `[a, b] + [c]` differ).
    private final class List: UnkeyedEncodingContainer {
        let encoder: DigestEncoder
        var codingPath: [any CodingKey] { [] }
        private(set) var count = 0

        init(encoder: DigestEncoder) { self.encoder = encoder }
        deinit { encoder.endList(count: count) }

        func encodeNil() {
            count += 1
            encoder.absent()
        }
        func encode(_ value: Bool) {
            count += 1
            encoder.add(value)
        }
        func encode(_ value: String) {
            count += 1
            encoder.add(value)
        }
        func encode(_ value: Int) {
            count += 1
            encoder.add(value)
        }
        func encode(_ value: UInt64) {
            count += 1
            encoder.add(value)
        }
        func encode<T: Encodable>(_ value: T) throws {
            count += 1
            try encoder.encodeNested(value)
        }
        func nestedContainer<Nested: CodingKey>(keyedBy keyType: Nested.Type) -> KeyedEncodingContainer<Nested> {
            count += 1
            return encoder.container(keyedBy: Nested.self)
        }
        func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            count += 1
            return encoder.unkeyedContainer()
        }
        func superEncoder() -> any Encoder { encoder }
    }

    private struct Single: SingleValueEncodingContainer {
        let encoder: DigestEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() { encoder.absent() }
        mutating func encode(_ value: Bool) { encoder.add(value) }
        mutating func encode(_ value: String) { encoder.add(value) }
        mutating func encode(_ value: Int) { encoder.add(value) }
        mutating func encode(_ value: UInt64) { encoder.add(value) }
        mutating func encode(_ value: Double) { encoder.unsupported(Double.self) }
        mutating func encode(_ value: Float) { encoder.unsupported(Float.self) }
        mutating func encode(_ value: Int8) { encoder.unsupported(Int8.self) }
        mutating func encode(_ value: Int16) { encoder.unsupported(Int16.self) }
        mutating func encode(_ value: Int32) { encoder.unsupported(Int32.self) }
        mutating func encode(_ value: Int64) { encoder.unsupported(Int64.self) }
        mutating func encode(_ value: UInt) { encoder.unsupported(UInt.self) }
        mutating func encode(_ value: UInt8) { encoder.unsupported(UInt8.self) }
        mutating func encode(_ value: UInt16) { encoder.unsupported(UInt16.self) }
        mutating func encode(_ value: UInt32) { encoder.unsupported(UInt32.self) }
        mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encodeNested(value) }
    }
}
