import BoardArchiveModel
import Foundation

/// A page's typed value read straight into its stencils' leaves, without the `[String: Any]` context in between.
///
/// ``ContextShape/walk(_:names:nested:printed:shape:leaves:)`` reads a context's values in the order of a template's
/// names. Here the page's value is encoded once into one *slot* per name the page template or the layout uses (their
/// names merged, ``SlotPlan``), its head's and the site's keys into the slots no earlier layer filled, and each
/// template's shape and leaves are then read from the slots in its own names' order: the shape and leaves the walk of
/// the page's layers gives, by construction, and checked against that walk on the first page of each shape
/// (``ShapeStencils/typedStencil(_:shape:check:)``). A key no template names is never encoded.
typealias Slot = ShapeValue<SlotTable>

/// A value's slots, one per name of a list (``NameList``): nil where the value holds nothing of that name.
struct SlotTable: Sendable {
    var slots: [Slot?]

    init(slots: [Slot?]) {
        self.slots = slots
    }

    init(count: Int) {
        slots = [Slot?](repeating: nil, count: count)
    }

    /// The slots of a dictionary's keys among `names`, its nested values' in slots of `nested` (by default the same
    /// names: a nested value's own); nil when one holds a value of a type the stencils do not take.
    init?(_ context: [String: Any], names: NameList, nested: NameList? = nil) {
        self.init(count: names.list.count)
        for (key, value) in context {
            guard let place = names.places[key] else { continue }
            guard let slot = Self.slot(of: value, key: key, nested: nested ?? names) else { return nil }
            slots[place] = slot
        }
    }

    /// The slot of a context's value, as ``ContextShape/value(_:key:)`` classifies it, nested values in slots of `nested`.
    static func slot(of value: Any, key: String, nested: NameList) -> Slot? {
        switch ContextShape.value(value, key: key) {
        case .leaf(let text): return .leaf(text)
        case .flag(let flag): return .flag(flag)
        case .strings: return .strings
        case .object(let object): return SlotTable(object, names: nested).map { .object($0) }
        case .list(let rows):
            var tables: [SlotTable] = []
            for row in rows {
                guard let table = SlotTable(row, names: nested) else { return nil }
                tables.append(table)
            }
            return .list(tables)
        case nil: return nil
        }
    }
}

/// How a page template and the layout read one slot table: the names of both merged, and each template's places in them.
final class SlotPlan: Sendable {
    /// One template's reading: its names, and for each of its places (top level and nested) the slot that holds it.
    struct Reading: Sendable {
        let names: StencilNames
        let slots: [Int]
        let nestedSlots: [Int]

        init(_ names: StencilNames, all: NameList, nested: NameList) {
            self.names = names
            slots = names.all.map { all.places[$0] ?? -1 }
            nestedSlots = names.nested.map { nested.places[$0] ?? -1 }
        }
    }

    /// The names of both templates, top level and nested, sorted.
    let all: NameList
    let nested: NameList
    let page: Reading
    let layout: Reading
    /// The slot of `content` (the page as the layout prints it), if the layout reads it.
    let content: Int?
    /// The lists the page template prints as pre-rendered rows (``RowPrerender``): a page with rows in one is left to the
    /// layers, where its rows are rendered.
    let prerendered: Set<String>
    /// The site's keys (``SiteData``), in the slots of ``all``.
    let site: [Slot?]

    /// The plan for `template` in `layout`, or nil when one of them has no stencil, the layout pre-renders rows, or the
    /// site's keys hold a value the stencils do not take.
    init?(page: StencilNames?, layout: StencilNames?, prerendered: Set<String>, layoutPrerenders: Bool, site: [String: Any]) {
        guard let page, let layout, !layoutPrerenders else { return nil }
        all = NameList(Set(page.all).union(layout.all).sorted())
        nested = NameList(Set(page.nested).union(layout.nested).sorted())
        self.page = Reading(page, all: all, nested: nested)
        self.layout = Reading(layout, all: all, nested: nested)
        content = layout.allNames.places["content"] != nil ? all.places["content"] : nil
        self.prerendered = prerendered
        guard let site = SlotTable(site, names: all, nested: nested) else { return nil }
        self.site = site.slots
    }

    /// Feeds `reading`'s shape of `slots` into `shape` and appends its leaves, as
    /// ``ContextShape/walk(_:names:nested:printed:shape:leaves:)`` does for the same values as layers; `content`, when
    /// given, is the value of ``content``. False when a name a variable tag prints holds an object or a list.
    func read(_ slots: [Slot?], as reading: Reading, content: String? = nil, shape: inout BuildDigest, leaves: inout [String]) -> Bool {
        for (place, index) in reading.slots.enumerated() where index >= 0 {
            let slot = content != nil && index == self.content ? Slot.leaf(content ?? "") : slots[index]
            guard let slot else { continue }
            guard add(slot, name: reading.names.all[place], place: place, reading: reading, shape: &shape, leaves: &leaves) else { return false }
        }
        shape.add(-1)
        return true
    }

    private func readNested(_ slots: [Slot?], as reading: Reading, shape: inout BuildDigest, leaves: inout [String]) -> Bool {
        for (place, index) in reading.nestedSlots.enumerated() where index >= 0 {
            guard let slot = slots[index] else { continue }
            guard add(slot, name: reading.names.nested[place], place: place, reading: reading, shape: &shape, leaves: &leaves) else { return false }
        }
        shape.add(-1)
        return true
    }

    @inline(__always)
    private func add(_ slot: Slot, name: String, place: Int, reading: Reading, shape: inout BuildDigest, leaves: inout [String]) -> Bool {
        slot.add(name: name, place: place, printed: reading.names.printed, shape: &shape, leaves: &leaves) { table, shape, leaves in
            readNested(table.slots, as: reading, shape: &shape, leaves: &leaves)
        }
    }
}

/// Encodes a ``TemplateData`` value into slots (see ``Slot``): each key's value into the slot of its name, if a
/// template names it; a nested value and a list's items into slots of the nested names. A value of another kind than
/// ``TemplateDataEncoder`` makes, or rows in a pre-rendered list, set ``failed``.
final class SlotEncoder: TemplateDataEncoding {
    let names: NameList
    let nested: NameList
    /// The lists that must be empty (``SlotPlan/prerendered``; only at the top level).
    let prerendered: Set<String>
    @exclusivity(unchecked) var slots: [Slot?]
    /// The rows written by an unkeyed container.
    @exclusivity(unchecked) var rows: [SlotTable] = []
    /// Whether values go only into slots no earlier value filled (a later layer: the head's keys under the page's).
    var underEarlier = false
    var failed = false

    init(names: NameList, nested: NameList, prerendered: Set<String> = []) {
        self.names = names
        self.nested = nested
        self.prerendered = prerendered
        slots = [Slot?](repeating: nil, count: names.list.count)
    }

    /// The slots of `value` (a nested value or a list's item), or nil.
    static func slots<T: Encodable>(of value: T, names: NameList) -> SlotTable? {
        let encoder = SlotEncoder(names: names, nested: names)
        encoder.encode(value)
        return encoder.failed ? nil : SlotTable(slots: encoder.slots)
    }

    /// Encodes `value`'s keys here.
    func encode<T: Encodable>(_ value: T) {
        do { try value.encode(to: self) } catch { failed = true }
    }

    /// The slot `key` is written to, or nil when no template names it or an earlier layer filled it.
    @inline(__always)
    func place(of key: String) -> Int? {
        guard let place = names.places[key], !underEarlier || slots[place] == nil else { return nil }
        return place
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Keyed<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { Rows(encoder: self) }

    private struct Keyed<Key: CodingKey>: TemplateDataContainer {
        let encoder: SlotEncoder

        private func set(_ slot: @autoclosure () -> Slot, _ key: Key) {
            if let place = encoder.place(of: key.stringValue) { encoder.slots[place] = slot() }
        }

        mutating func encodeNil(forKey key: Key) { set(.flag(false), key) }
        mutating func encode(_ value: String, forKey key: Key) { set(.leaf(value), key) }
        mutating func encode(_ value: Int, forKey key: Key) { set(.leaf(String(value)), key) }
        mutating func encode(_ value: Bool, forKey key: Key) { set(.flag(value), key) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) { set(value.map { .leaf($0) } ?? .flag(false), key) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) { set(value.map { .leaf(String($0)) } ?? .flag(false), key) }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) { set(.flag(value ?? false), key) }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            guard let value else { return set(.flag(false), key) }
            try encode(value, forKey: key)
        }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            let kind = TemplateDataEncoder.info(of: T.self).kind
            if kind == .inlined { return try value.encode(to: encoder) }
            guard let place = encoder.place(of: key.stringValue) else { return }
            switch kind {
            case .text, .number, .flag, .inlined:
                // Reached only through a generic call; the overloads above take these.
                if let text = value as? String {
                    encoder.slots[place] = .leaf(text)
                } else if let number = value as? Int {
                    encoder.slots[place] = .leaf(String(number))
                } else if let flag = value as? Bool {
                    encoder.slots[place] = .flag(flag)
                } else {
                    encoder.failed = true
                }
            case .prepared:
                // The interface strings only; prepared rows are read through the layers.
                guard key.stringValue == "s", (value as? any TemplatePrepared)?.templateValue is [String: String] else {
                    encoder.failed = true
                    return
                }
                encoder.slots[place] = .strings
            case .object:
                guard let slots = SlotEncoder.slots(of: value, names: encoder.nested) else {
                    encoder.failed = true
                    return
                }
                encoder.slots[place] = .object(slots)
            case .list:
                let list = SlotEncoder(names: encoder.nested, nested: encoder.nested)
                list.encode(value)
                if list.failed || (!list.rows.isEmpty && encoder.prerendered.contains(key.stringValue)) {
                    encoder.failed = true
                    return
                }
                encoder.slots[place] = .list(list.rows)
            }
        }
        func refuse(_ type: Any.Type) { encoder.failed = true }
    }

    private struct Rows: TemplateDataRows {
        let encoder: SlotEncoder
        var count: Int { encoder.rows.count }

        mutating func encode<T: Encodable>(_ value: T) throws {
            let kind = TemplateDataEncoder.info(of: T.self).kind
            if kind == .inlined || kind == .object, let row = SlotEncoder.slots(of: value, names: encoder.names) {
                encoder.rows.append(row)
            } else {
                encoder.failed = true
            }
        }
        mutating func encodeNil() { encoder.failed = true }
    }
}
