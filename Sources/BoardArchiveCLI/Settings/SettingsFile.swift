import Configuration
import Foundation
import Yams

/// `boardarchive.yaml` read through Yams' node tree, so that every key and value keeps its line for messages.
///
/// Keys nest by section (`crawl:` then `page-size: 30`) or are written dotted (`crawl.page-size: 30`); both name the
/// same setting. Unknown keys, values of the wrong kind and keys given twice are errors naming the file and the line.
/// A key with no value (`max-rps:`) is the same as an absent one.
struct SettingsFile: Equatable {
    /// The file's name in the working folder when `--config` is not given.
    static let defaultName = "boardarchive.yaml"

    /// The path of the file, as given.
    let path: String
    /// Each setting the file gives: its checked value and the line it is on.
    private(set) var values: [String: (content: ConfigContent, line: Int)] = [:]

    static func == (lhs: SettingsFile, rhs: SettingsFile) -> Bool {
        lhs.path == rhs.path && lhs.values.mapValues(\.content) == rhs.values.mapValues(\.content)
    }

    /// Reads and checks the file at `path`.
    init(path: String) throws {
        if path.lowercased().hasSuffix(".json") { throw SettingsError(key: path, origin: .defaultValue, reason: .legacyJSON) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SettingsError(key: path, origin: .defaultValue, reason: .unreadable)
        }
        try self.init(path: path, text: String(decoding: data, as: UTF8.self))
    }

    /// Checks `text` as the contents of the file at `path`; relative paths in it resolve against the file's folder.
    init(path: String, text: String) throws {
        self.path = path
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw Self.error(for: error, path: path)
        }
        guard let root else { return }
        guard case .mapping(let mapping) = root else {
            throw SettingsError(
                key: "", origin: .file(path: path, line: root.mark?.line ?? 1), reason: .notYAML("expected a mapping of settings such as `build:`"))
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try read(mapping, prefix: "", folder: folder)
    }

    /// Reads one mapping, `prefix` being the dotted path of its section.
    private mutating func read(_ mapping: Node.Mapping, prefix: String, folder: URL) throws {
        for (keyNode, valueNode) in mapping {
            let line = keyNode.mark?.line ?? 0
            let name = prefix + (keyNode.string ?? "")
            let origin = SettingOrigin.file(path: path, line: line)
            if let key = SettingKey.named(name) {
                if let first = values[name] { throw SettingsError(key: name, origin: origin, reason: .duplicateKey(firstLine: first.line)) }
                guard let raw = try Self.raw(valueNode, key: key, origin: origin) else { continue }
                switch key.parse(raw, relativeTo: folder) {
                case .success(let content): values[name] = (content, valueNode.mark?.line ?? line)
                case .failure(let problem):
                    let valueOrigin = SettingOrigin.file(path: path, line: valueNode.mark?.line ?? line)
                    throw SettingsError(key: name, origin: valueOrigin, reason: .invalidValue(expected: problem.expected, shown: problem.shown))
                }
            } else if case .mapping(let section) = valueNode, SettingKey.all.contains(where: { $0.name.hasPrefix(name + ".") }) {
                try read(section, prefix: name + ".", folder: folder)
            } else if name.hasSuffix("token") || name.hasSuffix("password") {
                throw SettingsError(key: name, origin: origin, reason: .tokenInFile)
            } else {
                throw SettingsError(key: name, origin: origin, reason: .unknownKey(suggestion: SettingKey.all.map(\.name).nearest(to: name)))
            }
        }
    }

    /// The node as a raw value for `key`; nil for an empty value; a mapping where a value belongs is an error.
    private static func raw(_ node: Node, key: SettingKey, origin: SettingOrigin) throws -> RawSetting? {
        switch node {
        case .scalar(let scalar):
            if node.null != nil || (scalar.style == .plain && scalar.string.isEmpty) { return nil }
            return .scalar(scalar.string)
        case .sequence(let sequence):
            var items: [String] = []
            for item in sequence {
                guard case .scalar(let scalar) = item else {
                    throw SettingsError(
                        key: key.name, origin: origin, reason: .invalidValue(expected: "a list of strings", shown: "a nested list or mapping"))
                }
                items.append(scalar.string)
            }
            return .list(items)
        case .mapping, .alias:
            throw SettingsError(key: key.name, origin: origin, reason: .invalidValue(expected: key.expectation, shown: "a mapping"))
        }
    }

    /// A Yams syntax error as a message naming the file, line and column.
    private static func error(for error: YamlError, path: String) -> SettingsError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return SettingsError(key: "", origin: .file(path: path, line: mark.line), reason: .notYAML(problem))
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.sorted().joined(separator: ", ")
            return SettingsError(key: keys, origin: .file(path: path, line: context.mark.line), reason: .duplicateKey(firstLine: nil))
        default:
            let words = "\(error)".split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            return SettingsError(key: path, origin: .defaultValue, reason: .notYAML(words))
        }
    }
}

extension [String] {
    /// The element nearest to `word` by edit distance, when it is close enough to be a typo (at most a third of it).
    func nearest(to word: String) -> String? {
        let scored = map { ($0, Self.distance([Character]($0), [Character](word))) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= Swift.max(2, word.count / 3) else { return nil }
        return best
    }

    private static func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = [Int](0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() { current.append(Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))) }
            previous = current
        }
        return previous[b.count]
    }
}
