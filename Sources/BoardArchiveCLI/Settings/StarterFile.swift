/// The commented `boardarchive.yaml` that `boardarchive init` writes: every setting with its meaning, its flag and
/// variable, and its default (settings without one are shown commented out with an example).
enum StarterFile {
    static var text: String {
        var lines = [
            "# boardarchive.yaml: the settings of every boardarchive command (crawl, build, export, demo, serve).",
            "#",
            "# A command-line flag wins over a BOARDARCHIVE_… environment variable, which wins over this file, which wins",
            "# over the defaults written here. Relative paths are relative to this file's folder. Unknown keys are errors.",
            "# The API token never goes here: keep it in the environment variable named by api.token-env (in CI, a secret)",
            "# or in the file named by api.token-file.",
        ]
        var section: String?
        for key in SettingKey.all {
            var parts = key.name.split(separator: ".").map(String.init)
            // A key under a name that is itself a setting (`store.create` beside `store`) is written dotted at the top.
            if parts.count > 1, SettingKey.named(parts[0]) != nil { parts = [key.name] }
            let keySection = parts.count > 1 ? parts[0] : nil
            let indent = keySection == nil ? "" : "  "
            if keySection != section {
                lines.append("")
                if let keySection { lines.append("\(keySection):") }
                section = keySection
            } else if keySection == nil {
                lines.append("")
            }
            let sources = (key.flag.map { "\($0), " } ?? "") + key.environmentVariable
            lines.append("\(indent)# \(key.help) (\(sources))")
            let leaf = parts.last ?? key.name
            if let value = key.defaultValue {
                lines.append("\(indent)\(leaf): \(value)")
            } else {
                lines.append("\(indent)# \(leaf): \(key.example ?? "")")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
