import Foundation

extension TemplateRenderer {
    /// Assets the build links from code rather than from a template: `search.html` loads `assets/search.js`.
    static let requiredAssets = ["search.js"]

    /// The `{{root}}assets/…` references of a template with their 1-based line numbers, without query or fragment.
    ///
    /// Templates write every link as `{{root}}path`, so these are exactly the asset files their pages will load.
    static func assetReferences(in text: String) -> [(path: String, line: Int)] {
        let pattern = #/\{\{\{?[ \t]*root[ \t]*\}?\}\}assets/([^"'\s?#<>{}]+)/#
        var references: [(path: String, line: Int)] = []
        for match in text.matches(of: pattern) {
            let line = line(of: match.range.lowerBound, in: text)
            references.append((String(match.output.1), line))
        }
        return references
    }

    /// Fails when a template (or the build itself) refers to an asset that `assets/` does not provide.
    ///
    /// Without this a `--templates` folder with a missing or renamed asset builds "successfully" into pages
    /// whose styles and scripts are dangling references.
    static func checkAssets(of sources: [(name: String, text: String)], in directory: URL) throws {
        let assetsFolder = directory.appendingPathComponent("assets", isDirectory: true)
        let available = Set(TemplateRenderer.assetPaths(in: assetsFolder))
        for (name, text) in sources {
            for reference in assetReferences(in: text) where !available.contains(reference.path) {
                throw BuildError(
                    phase: .templates, reason: .assetNotFound(reference.path),
                    location: "\(directory.appendingPathComponent(name + ".mustache").path):\(reference.line)")
            }
        }
        for asset in requiredAssets where !available.contains(asset) {
            throw BuildError(phase: .templates, reason: .assetNotFound(asset), location: assetsFolder.path)
        }
    }

    /// The relative paths of the non-hidden files under `assets`, sorted; empty when the folder is absent.
    package static func assetPaths(in assets: URL) -> [String] {
        let base = assets.standardizedFileURL.path
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return [] }
        var paths: [String] = []
        for case let path as String in enumerator where !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                paths.append(path)
            }
        }
        return paths.sorted()
    }
}
