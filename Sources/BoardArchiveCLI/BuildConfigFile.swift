import ArgumentParser
import Foundation

/// The build settings a `--config` file may hold; a flag given on the command line wins over the file.
///
/// The file is a JSON object, for example
/// `{"out": "public", "timezone": "Asia/Seoul", "lang": "ko", "keywords": ["서울", "회의"], "topKeywords": 30}`.
/// Relative paths in it (`out`, `templates`) are relative to the file's folder, so a nightly job can run from
/// anywhere. Unknown keys are refused rather than ignored, so a typo never silently drops a setting.
struct BuildConfigFile: Equatable, Decodable {
    var out: String?
    var templates: String?
    var timezone: String?
    var lang: String?
    var keywords: [String]?
    var topKeywords: Int?

    /// The keys the file may use.
    static let keys = ["keywords", "lang", "out", "templates", "timezone", "topKeywords"]

    /// Reads and checks the file at `path`; errors are usage errors (exit 64) naming the file and the key.
    static func load(_ path: String) throws -> BuildConfigFile {
        let url = URL(fileURLWithPath: path)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ValidationError("--config \(path) cannot be read; check the path.")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw ValidationError("--config \(path) is not a JSON object such as {\"keywords\": [\"서울\"], \"topKeywords\": 20}.")
        }
        if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
            throw ValidationError("--config \(path) has an unknown key \"\(unknown)\"; the keys are \(keys.joined(separator: ", ")).")
        }
        var file: BuildConfigFile
        do {
            file = try JSONDecoder().decode(BuildConfigFile.self, from: data)
        } catch let DecodingError.typeMismatch(type, context) {
            let key = context.codingPath.first?.stringValue ?? "?"
            throw ValidationError("--config \(path): \"\(key)\" must be \(expected(for: key, type: type)).")
        } catch {
            throw ValidationError("--config \(path) cannot be read as build settings: \(error.localizedDescription)")
        }
        let folder = url.deletingLastPathComponent()
        file.out = file.out.map { resolve($0, against: folder) }
        file.templates = file.templates.map { resolve($0, against: folder) }
        return file
    }

    /// The kind of value a key takes, in words.
    private static func expected(for key: String, type: Any.Type) -> String {
        switch key {
        case "keywords": return "a list of strings"
        case "topKeywords": return "a whole number"
        default: return type == String.self ? "a string" : "a \(type)"
        }
    }

    private static func resolve(_ path: String, against folder: URL) -> String {
        path.hasPrefix("/") ? path : folder.appendingPathComponent(path).standardizedFileURL.path
    }
}
