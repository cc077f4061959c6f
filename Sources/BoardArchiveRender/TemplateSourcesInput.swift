import BoardArchiveModel

/// The templates, each by name with its text.
struct TemplateSourcesInput: PageInput, Equatable {
    static let kind = "templates"
    var templates: [TemplateSourceInput]
}

/// One template's name and text.
struct TemplateSourceInput: Codable, Equatable {
    var name: String
    var text: String
}
