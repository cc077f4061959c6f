import Synchronization

/// What a template is given, as a value: each page kind, row and item is a type (``PageData.swift``) whose stored
/// properties are the keys its template may read. The Mustache context is made from the value by one encoder
/// (``TemplateDataEncoder``), and the keys the template checks accept are read from the types themselves
/// (``TemplateDataKeys``): a field added to a page's data is a key its templates may read, by construction.
///
/// Contexts hold only the types swift-mustache and the stencils read fast (``ContextShape``): `String`, `Int`, `Bool`,
/// `[String: Any]` for a nested value, `[[String: Any]]` for a list of them. A nil optional is `false`, never a
/// missing key (a missing key would make Mustache look it up in an enclosing context and print the wrong value).
package protocol TemplateData: Codable {}

/// A value whose keys are part of the value that holds it (as if its fields were written there), such as the fields a
/// post page shares with a row.
package protocol TemplateInlined: TemplateData {}

/// A value that enters a context as it is, already made: the interface strings, rows made once and reused.
/// `Decodable` so that ``TemplateDataKeys`` can read the keys of what it stands for.
package protocol TemplatePrepared: Codable {
    /// The value as the context holds it.
    var templateValue: Any { get }
}

extension TemplateData {
    /// The Mustache context of this value.
    package var context: [String: Any] {
        TemplateDataEncoder.object(of: self, known: TemplateDataEncoder.info(of: Self.self).size)
    }
}

/// Makes a Mustache context from a ``TemplateData`` value (see there for the types it makes).
final class TemplateDataEncoder: TemplateDataEncoding {
    /// The keys written so far. Not checked for exclusive access at run time (every page's and row's keys were): an
    /// encoder is made, written and read by one call of ``object(of:known:)`` or ``contextValue(of:)``, each write a
    /// single assignment.
    @exclusivity(unchecked) var object: [String: Any] = [:]
    /// The rows written by an unkeyed container.
    @exclusivity(unchecked) var list: [[String: Any]] = []

    /// How a value of a type enters a context.
    enum Kind {
        case text, number, flag, inlined, prepared, list, object
    }

    /// What is known of a type: its kind and how many keys a value of it held when last encoded (its next context
    /// is made that large at once, as a dictionary literal would be, instead of growing key by key).
    struct TypeInfo {
        var kind: Kind
        var size = 0
    }

    /// Each type met so far: asking the runtime whether a type conforms to a protocol costs more than encoding a row's
    /// fields, so each type is asked once, and one lookup gives both its kind and its size.
    private static let types = Mutex<[ObjectIdentifier: TypeInfo]>([:])

    /// What is known of `type`, classified on first sight.
    static func info<T>(of type: T.Type) -> TypeInfo {
        let id = ObjectIdentifier(type)
        if let info = types.withLock({ $0[id] }) { return info }
        let info = TypeInfo(kind: classify(type))
        types.withLock { $0[id] = $0[id] ?? info }
        return info
    }

    private static func classify<T>(_ type: T.Type) -> Kind {
        if type == String.self { return .text }
        if type == Int.self { return .number }
        if type == Bool.self { return .flag }
        if type is any TemplateInlined.Type { return .inlined }
        if type is any TemplatePrepared.Type { return .prepared }
        if type is any Collection.Type { return .list }
        return .object
    }

    /// An encoder that has encoded `value`.
    private static func encoding(_ value: some Encodable, reserving size: Int = 0) -> TemplateDataEncoder {
        let encoder = TemplateDataEncoder()
        encoder.object.reserveCapacity(size)
        do { try value.encode(to: encoder) } catch { preconditionFailure("template data cannot fail to encode: \(error)") }
        return encoder
    }

    /// The context of a keyed value whose type (``info(of:)``) held `known` keys before.
    static func object<T: Encodable>(of value: T, known: Int) -> [String: Any] {
        let object = encoding(value, reserving: known).object
        if object.count > known {
            let id = ObjectIdentifier(T.self)
            types.withLock { if let size = $0[id]?.size, size < object.count { $0[id]?.size = object.count } }
        }
        return object
    }

    /// The context value of `value`: itself for a text, number or flag, else a nested object, list or prepared value.
    static func contextValue<T: Encodable>(of value: T) -> Any {
        let info = info(of: T.self)
        switch info.kind {
        case .text, .number, .flag: return value
        case .prepared: return (value as? any TemplatePrepared)?.templateValue ?? false
        case .inlined, .object: return object(of: value, known: info.size)
        case .list: return encoding(value).list
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Keyed<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { Rows(encoder: self) }

    private struct Keyed<Key: CodingKey>: TemplateDataContainer {
        let encoder: TemplateDataEncoder

        mutating func encodeNil(forKey key: Key) { encoder.object[key.stringValue] = false }
        mutating func encode(_ value: String, forKey key: Key) { encoder.object[key.stringValue] = value }
        mutating func encode(_ value: Int, forKey key: Key) { encoder.object[key.stringValue] = value }
        mutating func encode(_ value: Bool, forKey key: Key) { encoder.object[key.stringValue] = value }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) {
            encoder.object[key.stringValue] = value.map { $0 as Any } ?? false
        }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) {
            encoder.object[key.stringValue] = value.map { $0 as Any } ?? false
        }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) { encoder.object[key.stringValue] = value ?? false }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            guard let value else {
                encoder.object[key.stringValue] = false
                return
            }
            try encode(value, forKey: key)
        }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            if TemplateDataEncoder.info(of: T.self).kind == .inlined {
                try value.encode(to: encoder)
            } else {
                encoder.object[key.stringValue] = TemplateDataEncoder.contextValue(of: value)
            }
        }
        func refuse(_ type: Any.Type) { unsupported(type) }
    }

    private struct Rows: TemplateDataRows {
        let encoder: TemplateDataEncoder
        var count: Int { encoder.list.count }

        mutating func encode<T: Encodable>(_ value: T) throws {
            guard let row = TemplateDataEncoder.contextValue(of: value) as? [String: Any] else {
                preconditionFailure("a template list holds keyed values, not \(T.self)")
            }
            encoder.list.append(row)
        }
        mutating func encodeNil() { unsupported(Never.self) }
    }
}

/// An encoder of template data: keyed values and lists of them, no single values.
protocol TemplateDataEncoding: Encoder {}

extension TemplateDataEncoding {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        preconditionFailure("template data is made of keyed values and lists of them")
    }
}

/// A list of template data: it nests values, never containers.
protocol TemplateDataRows: UnkeyedEncodingContainer {
    associatedtype Owner: Encoder
    /// The encoder the list writes to.
    var encoder: Owner { get }
}

extension TemplateDataRows {
    var codingPath: [any CodingKey] { [] }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure("template data nests values, not containers")
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        preconditionFailure("template data nests values, not containers")
    }
    mutating func superEncoder() -> any Encoder { encoder }
}

/// A keyed container of template data: what it holds no container refuses alike (``refuse(_:)``), and it nests values,
/// never containers.
protocol TemplateDataContainer: KeyedEncodingContainerProtocol {
    associatedtype Owner: Encoder
    /// The encoder the container writes to.
    var encoder: Owner { get }
    /// Refuses a value of `type`, a kind template data never holds.
    func refuse(_ type: Any.Type)
}

extension TemplateDataContainer {
    var codingPath: [any CodingKey] { [] }
    mutating func superEncoder() -> any Encoder { encoder }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure("template data nests values, not containers")
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        preconditionFailure("template data nests values, not containers")
    }
    mutating func encode(_ value: Double, forKey key: Key) { refuse(Double.self) }
    mutating func encode(_ value: Float, forKey key: Key) { refuse(Float.self) }
    mutating func encode(_ value: Int8, forKey key: Key) { refuse(Int8.self) }
    mutating func encode(_ value: Int16, forKey key: Key) { refuse(Int16.self) }
    mutating func encode(_ value: Int32, forKey key: Key) { refuse(Int32.self) }
    mutating func encode(_ value: Int64, forKey key: Key) { refuse(Int64.self) }
    mutating func encode(_ value: UInt, forKey key: Key) { refuse(UInt.self) }
    mutating func encode(_ value: UInt8, forKey key: Key) { refuse(UInt8.self) }
    mutating func encode(_ value: UInt16, forKey key: Key) { refuse(UInt16.self) }
    mutating func encode(_ value: UInt32, forKey key: Key) { refuse(UInt32.self) }
    mutating func encode(_ value: UInt64, forKey key: Key) { refuse(UInt64.self) }
}

private func unsupported(_ type: Any.Type) -> Never {
    preconditionFailure("template data holds String, Int, Bool, optionals, nested values and lists of them, not \(type)")
}

/// Every key a type of template data holds, its nested values' and lists' included, read from the type by decoding a
/// stand-in of it (so that no list of keys is kept by hand).
package enum TemplateDataKeys {
    /// The keys of `type` and of every value it nests.
    package static func of(_ type: any Decodable.Type) -> Set<String> {
        let decoder = KeyReader()
        _ = try? type.init(from: decoder)
        return decoder.keys.keys
    }

    /// The keys of `type` itself (an inlined value's included), not those of the values it nests.
    package static func topLevel(of type: any Decodable.Type) -> Set<String> {
        let decoder = KeyReader()
        decoder.keys.topLevelOnly = true
        _ = try? type.init(from: decoder)
        return decoder.keys.keys
    }

    final class Keys {
        var keys: Set<String> = []
        var topLevelOnly = false
        /// How deep in nested values the reader is (an inlined value is at its holder's depth).
        var depth = 0

        func record(_ key: String) {
            if !topLevelOnly || depth == 0 { keys.insert(key) }
        }
    }

    /// Answers every question a synthesised `init(from:)` asks with a stand-in value, recording the keys asked for.
    private struct KeyReader: Decoder {
        var keys = Keys()
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Keyed<Key>(reader: self))
        }
        func unkeyedContainer() -> any UnkeyedDecodingContainer { Once(reader: self) }
        func singleValueContainer() -> any SingleValueDecodingContainer { Single(reader: self) }

        /// A stand-in of `type`: empty, zero, false, or one made by reading its keys.
        func standIn<T: Decodable>(_ type: T.Type) throws -> T {
            if let value = "" as? T { return value }
            if let value = 0 as? T { return value }
            if let value = false as? T { return value }
            if type is any TemplateInlined.Type { return try T(from: self) }
            keys.depth += 1
            defer { keys.depth -= 1 }
            return try T(from: self)
        }
    }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let reader: KeyReader
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) -> Bool {
            reader.keys.record(key.stringValue)
            return false
        }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            if !(type is any TemplateInlined.Type) { reader.keys.record(key.stringValue) }
            return try reader.standIn(type)
        }
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            try decode(type, forKey: key)
        }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) -> KeyedDecodingContainer<NestedKey> {
            reader.keys.record(key.stringValue)
            return reader.container(keyedBy: type)
        }
        func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedDecodingContainer {
            reader.keys.record(key.stringValue)
            return Once(reader: reader)
        }
        func superDecoder() -> any Decoder { reader }
        func superDecoder(forKey key: Key) -> any Decoder { reader }
    }

    /// A list of one stand-in element.
    private struct Once: UnkeyedDecodingContainer {
        let reader: KeyReader
        var codingPath: [any CodingKey] { [] }
        var count: Int? { 1 }
        var currentIndex = 0
        var isAtEnd: Bool { currentIndex >= 1 }

        mutating func decodeNil() -> Bool { false }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            currentIndex += 1
            return try reader.standIn(type)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedDecodingContainer<NestedKey> {
            currentIndex += 1
            return reader.container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedDecodingContainer {
            currentIndex += 1
            return Once(reader: reader)
        }
        mutating func superDecoder() -> any Decoder { reader }
    }

    /// A single value: a stand-in (a prepared value that decodes its own stand-in reads its keys here).
    private struct Single: SingleValueDecodingContainer {
        let reader: KeyReader
        var codingPath: [any CodingKey] { [] }
        func decodeNil() -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try reader.standIn(type) }
    }
}
