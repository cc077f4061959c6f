//
// BoardArchive patch: each fast path of `Template+Render.swift` against what the general code renders for the
// same value, given as a value of a type the fast paths do not take (an `Optional`, `[String: String]`, `[Any]`).
//

import Mustache
import XCTest

final class FastPathTests: XCTestCase {
    /// Renders `template` with `context`, and again with every plain value wrapped so that only the general code
    /// handles it; both must give `expected`.
    private func check(_ template: String, _ context: [String: Any], _ wrapped: [String: Any], _ expected: String) throws {
        let compiled = try MustacheTemplate(string: template)
        XCTAssertEqual(compiled.render(context), expected, "fast path")
        XCTAssertEqual(compiled.render(wrapped), expected, "general path")
    }

    func testVariables() throws {
        let context: [String: Any] = ["s": "a<b", "i": 42, "b": true, "f": false]
        let wrapped: [String: Any] = ["s": Optional("a<b") as Any, "i": Optional(42) as Any, "b": Optional(true) as Any,
                                      "f": Optional(false) as Any]
        try check("{{s}} {{{s}}} {{i}} {{{i}}} {{b}} {{f}}", context, wrapped, "a&lt;b a<b 42 42 true false")
    }

    func testSectionsOverBoolsAndStrings() throws {
        let context: [String: Any] = ["yes": true, "no": false, "s": "x"]
        let wrapped: [String: Any] = ["yes": Optional(true) as Any, "no": Optional(false) as Any, "s": Optional("x") as Any]
        try check("{{#yes}}Y{{/yes}}{{#no}}N{{/no}}{{^yes}}y{{/yes}}{{^no}}n{{/no}}{{#s}}[{{.}}]{{/s}}{{^s}}-{{/s}}",
                  context, wrapped, "Yn[x]")
    }

    func testSectionsOverDictionariesAndArrays() throws {
        let rows: [[String: Any]] = [["n": 1], ["n": 2], ["n": 3]]
        let context: [String: Any] = ["rows": rows, "none": [[String: Any]](), "d": ["k": "v"] as [String: Any], "top": "T"]
        let wrapped: [String: Any] = ["rows": rows.map { $0 as Any }, "none": [Any](), "d": ["k": "v"] as [String: String],
                                      "top": Optional("T") as Any]
        try check("{{#rows}}{{n}}{{top}},{{/rows}}{{^rows}}empty{{/rows}}{{#none}}x{{/none}}{{^none}}empty{{/none}}{{#d}}{{k}}{{top}}{{/d}}{{^d}}-{{/d}}",
                  context, wrapped, "1T,2T,3T,emptyvT")
    }

    func testEmptyNamesMeanTheCurrentObject() throws {
        let context: [String: Any] = ["title": "hi", "yes": true]
        let wrapped: [String: Any] = ["title": Optional("hi") as Any, "yes": Optional(true) as Any]
        try check("{{#title}}[{{}}|{{{}}}]{{/title}}{{#yes}}{{#}}X{{/}}{{^}}Y{{/}}{{/yes}}", context, wrapped, "[hi|hi]X")
    }

    func testDottedNamesAndTheStack() throws {
        let context: [String: Any] = ["a": ["b": ["c": "deep"] as [String: Any]] as [String: Any], "x": "outer",
                                      "inner": ["y": "in"] as [String: Any]]
        let wrapped: [String: Any] = ["a": ["b": ["c": "deep"]] as [String: [String: String]], "x": Optional("outer") as Any,
                                      "inner": ["y": "in"] as [String: String]]
        try check("{{a.b.c}} {{#inner}}{{y}} {{x}} {{.y}}|{{.x}}{{/inner}} {{missing}}", context, wrapped, "deep in outer in| ")
    }
}
