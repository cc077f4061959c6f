//
// This source file is part of the Hummingbird server framework project
// Copyright (c) the Hummingbird authors
//
// See LICENSE.txt for license information
// SPDX-License-Identifier: Apache-2.0
//

import Foundation

extension MustacheTemplate {
    /// Render template using object
    /// - Parameters:
    ///   - stack: Object
    ///   - context: Context that render is occurring in. Contains information about position in sequence
    ///   - indentation: indentation of partial
    /// - Returns: Rendered text
    func render(context: MustacheContext) -> String {
        var string = ""
        var context = context

        if let indentation = context.indentation, indentation != "" {
            for token in tokens {
                let renderedString = self.renderToken(token, context: &context)
                // if rendered string is not empty and we are on a new line
                if renderedString.count > 0, string.last == "\n" {
                    string += indentation
                }
                string += renderedString
            }
        } else {
            for token in tokens {
                let result = self.renderToken(token, context: &context)
                string += result
            }
        }
        return string
    }

    func renderToken(_ token: Token, context: inout MustacheContext) -> String {
        switch token {
        case .text(let text):
            return text

        case .variable(let variable, let transforms):
            if let child = getChild(named: variable, transforms: transforms, context: context) {
                if let text = Self.plainText(of: child) {
                    return context.contentType.escapeText(text)
                } else if let template = child as? MustacheTemplate {
                    return template.render(context: context)
                } else if let renderable = child as? MustacheCustomRenderable {
                    return context.contentType.escapeText(renderable.renderText)
                } else if let lambda = child as? MustacheLambda {
                    return self.renderLambda(lambda, parameter: "", context: context)
                } else {
                    return context.contentType.escapeText(String(describing: unwrapIfAnyContainsOptional(child)))
                }
            }

        case .unescapedVariable(let variable, let transforms):
            if let child = getChild(named: variable, transforms: transforms, context: context) {
                if let text = Self.plainText(of: child) {
                    return text
                } else if let renderable = child as? MustacheCustomRenderable {
                    return renderable.renderText
                } else if let lambda = child as? MustacheLambda {
                    return self.renderUnescapedLambda(lambda, parameter: "", context: context)
                } else {
                    return String(describing: unwrapIfAnyContainsOptional(child))
                }
            }

        case .section(let variable, let transforms, let template):
            let child = self.getChild(named: variable, transforms: transforms, context: context)
            if let lambda = child as? MustacheLambda {
                return self.renderUnescapedLambda(lambda, parameter: template.text, context: context)
            }
            return self.renderSection(child, with: template, context: context)

        case .invertedSection(let variable, let transforms, let template):
            let child = self.getChild(named: variable, transforms: transforms, context: context)
            return self.renderInvertedSection(child, with: template, context: context)

        case .blockExpansion(let name, let defaultTemplate, let indented):
            if let override = context.inherited?[name] {
                return override.render(context: context.withBlockExpansion(indented: indented))
            } else {
                return defaultTemplate.render(context: context.withBlockExpansion(indented: indented))
            }

        case .partial(let name, let indentation, let overrides):
            if var template = context.library?.getTemplate(named: name) {
                #if DEBUG
                if context.reloadPartials {
                    guard let filename = template.filename else {
                        preconditionFailure("Can only use reload if template was generated from a file")
                    }
                    do {
                        guard let partialTemplate = try MustacheTemplate(filename: filename) else { return "Cannot find template at \(filename)" }
                        template = partialTemplate
                    } catch {
                        return "\(error)"
                    }
                }
                #endif
                return template.render(context: context.withPartial(indented: indentation, inheriting: overrides))
            }

        case .dynamicNamePartial(let name, let indentation, let overrides):
            let child = self.getChild(named: name, transforms: [], context: context)
            guard let childName = child as? String else {
                return ""
            }
            if var template = context.library?.getTemplate(named: childName) {
                #if DEBUG
                if context.reloadPartials {
                    guard let filename = template.filename else {
                        preconditionFailure("Can only use reload if template was generated from a file")
                    }
                    do {
                        guard let partialTemplate = try MustacheTemplate(filename: filename) else { return "Cannot find template at \(filename)" }
                        template = partialTemplate
                    } catch {
                        return "\(error)"
                    }
                }
                #endif
                return template.render(context: context.withPartial(indented: indentation, inheriting: overrides))
            }

        case .contentType(let contentType):
            context = context.withContentType(contentType)

        case .blockDefinition:
            fatalError("Should not be rendering block definitions")
        }
        return ""
    }

    /// Render a section
    /// - Parameters:
    ///   - child: Object to render section for
    ///   - parent: Current object being rendered
    ///   - template: Template to render with
    /// - Returns: Rendered text
    func renderSection(_ child: Any?, with template: MustacheTemplate, context: MustacheContext) -> String {
        // BoardArchive patch: the common types first, by exact type, before the protocol casts below.
        if let child {
            let type = ObjectIdentifier(Swift.type(of: child))
            if type == ObjectIdentifier(Bool.self) {
                return child as! Bool ? template.render(context: context) : ""
            } else if type == ObjectIdentifier([[String: Any]].self) {
                return (child as! [[String: Any]]).renderSection(with: template, context: context)
            } else if type == ObjectIdentifier([String: Any].self) || type == ObjectIdentifier(String.self) {
                return template.render(context: context.withObject(child))
            }
        }
        switch child {
        case let array as any MustacheSequence:
            return array.renderSection(with: template, context: context)
        case let bool as Bool:
            return bool ? template.render(context: context) : ""
        case let null as MustacheCustomRenderable where null.isNull == true:
            return ""
        case .some(let value):
            return template.render(context: context.withObject(value))
        case .none:
            return ""
        }
    }

    /// Render an inverted section
    /// - Parameters:
    ///   - child: Object to render section for
    ///   - parent: Current object being rendered
    ///   - template: Template to render with
    /// - Returns: Rendered text
    func renderInvertedSection(_ child: Any?, with template: MustacheTemplate, context: MustacheContext) -> String {
        // BoardArchive patch: the common types first, by exact type, before the protocol casts below.
        if let child {
            let type = ObjectIdentifier(Swift.type(of: child))
            if type == ObjectIdentifier(Bool.self) {
                return child as! Bool ? "" : template.render(context: context)
            } else if type == ObjectIdentifier([[String: Any]].self) {
                return (child as! [[String: Any]]).isEmpty ? template.render(context: context.withObject(child)) : ""
            } else if type == ObjectIdentifier([String: Any].self) || type == ObjectIdentifier(String.self) {
                return ""
            }
        }
        switch child {
        case let array as any MustacheSequence:
            return array.renderInvertedSection(with: template, context: context)
        case let bool as Bool:
            return bool ? "" : template.render(context: context)
        case let null as MustacheCustomRenderable where null.isNull == true:
            return template.render(context: context)
        case .some:
            return ""
        case .none:
            return template.render(context: context)
        }
    }

    func renderLambda(_ lambda: MustacheLambda, parameter: String, context: MustacheContext) -> String {
        var lambda = lambda
        while true {
            guard let result = lambda(parameter) else { return "" }
            if let string = result as? String {
                do {
                    let newTemplate = try MustacheTemplate(string: context.contentType.escapeText(string))
                    return self.renderSection(context.stack.last, with: newTemplate, context: context)
                } catch {
                    return ""
                }
            } else if let lambda2 = result as? MustacheLambda {
                lambda = lambda2
                continue
            } else {
                return context.contentType.escapeText(String(describing: unwrapIfAnyContainsOptional(result)))
            }
        }
    }

    func renderUnescapedLambda(_ lambda: MustacheLambda, parameter: String, context: MustacheContext) -> String {
        var lambda = lambda
        while true {
            guard let result = lambda(parameter) else { return "" }
            if let string = result as? String {
                do {
                    let newTemplate = try MustacheTemplate(string: string)
                    return self.renderSection(context.stack.last, with: newTemplate, context: context)
                } catch {
                    return ""
                }
            } else if let lambda2 = result as? MustacheLambda {
                lambda = lambda2
                continue
            } else {
                return String(describing: unwrapIfAnyContainsOptional(result))
            }
        }
    }

    /// Get child object from variable name
    func getChild(named name: String, transforms: [String], context: MustacheContext) -> Any? {
        func _getImmediateChild(named name: String, from object: Any) -> Any? {
            // BoardArchive patch: a `[String: Any]` is looked up directly, without the protocol casts below.
            if ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier([String: Any].self) {
                return (object as! [String: Any])[name]
            }
            let child = {
                let object: Any? =
                    if let custom = object as? MustacheCustomRepresentation {
                        custom.representation
                    } else {
                        object
                    }
                if let customBox = object as? MustacheParent {
                    return customBox.child(named: name)
                } else if let object {
                    let mirror = Mirror(reflecting: object)
                    return mirror.getValue(forKey: name)
                } else {
                    return nil
                }
            }()
            return child
        }

        func _getChild(named names: ArraySlice<String>, from object: Any) -> Any? {
            guard let name = names.first else { return object }
            var object = object
            if let lambda = object as? MustacheLambda {
                guard let result = lambda("") else { return nil }
                object = result
            }
            guard let childObject = _getImmediateChild(named: name, from: object) else { return nil }
            let names2 = names.dropFirst()
            return _getChild(named: names2, from: childObject)
        }

        func _getChildInStack(named names: ArraySlice<String>, from stack: [Any]) -> Any? {
            guard let name = names.first else { return stack.last }
            for object in stack.reversed() {
                if let childObject = _getImmediateChild(named: name, from: object) {
                    let names2 = names.dropFirst()
                    return _getChild(named: names2, from: childObject)
                }
            }
            return nil
        }

        // work out which object to access. "." means the current object, if the variable name is ""
        // and we have a transform to run on the variable then we need the context object, otherwise
        // the name is split by "." and we use mirror to get the correct child object. If we cannot find
        // the root object we look up the context stack until we can find one with a matching name. The
        // stack climbing can be disabled by prefixing the variable name with a "."
        var child: Any?
        if name == "." {
            child = context.stack.last!
        } else if name == "", !transforms.isEmpty {
            child = context.sequenceContext
        } else if name.first == "." {
            let nameSplit = name.split(separator: ".").map { String($0) }
            child = _getChild(named: nameSplit[...], from: context.stack.last!)
        } else if !name.isEmpty, !name.utf8.contains(UInt8(ascii: ".")) {
            // BoardArchive patch: a name without dots is not split into a new array (an empty name, which means the
            // current object, still takes the general path).
            child = nil
            for object in context.stack.reversed() {
                if let childObject = _getImmediateChild(named: name, from: object) {
                    child = childObject
                    break
                }
            }
        } else {
            let nameSplit = name.split(separator: ".").map { String($0) }
            child = _getChildInStack(named: nameSplit[...], from: context.stack)
        }

        if transforms.isEmpty, let plain = child, Self.isPlain(plain) {
            // BoardArchive patch: no custom representation or transform applies to the plain types.
            return plain
        }
        if let custom = child as? MustacheCustomRepresentation {
            child = custom.representation
        }

        // skip transforms if child is already nil
        guard var child else {
            return nil
        }

        // if we want to run a transform and the current child can have transforms applied to it then
        // run transform on the current child
        for transform in transforms.reversed() {
            if let runnable = child as? MustacheTransformable,
                let transformed = runnable.transform(transform)
            {
                child = transformed
                continue
            }

            // return nil if transform is unsuccessful or has returned nil
            return nil
        }
        return child
    }

    private func unwrapIfAnyContainsOptional(_ value: Any) -> Any {
        guard let opt = value as? AnyOptional else { return value }
        return opt.anyWrapped ?? value  // nil? keep the original Optional.none
    }

    /// BoardArchive patch: whether `value` is of a type that renders as itself (`String`, `Int`, `Bool`, `[String: Any]`,
    /// `[[String: Any]]`), found by exact type rather than by protocol casts.
    static func isPlain(_ value: Any) -> Bool {
        let type = ObjectIdentifier(Swift.type(of: value))
        return type == ObjectIdentifier(String.self) || type == ObjectIdentifier(Int.self) || type == ObjectIdentifier(Bool.self)
            || type == ObjectIdentifier([String: Any].self) || type == ObjectIdentifier([[String: Any]].self)
    }

    /// BoardArchive patch: the text of a `String`, `Int` or `Bool`, as `String(describing:)` gives it, or nil for any
    /// other type.
    static func plainText(of value: Any) -> String? {
        let type = ObjectIdentifier(Swift.type(of: value))
        if type == ObjectIdentifier(String.self) { return (value as! String) }
        if type == ObjectIdentifier(Int.self) { return String(value as! Int) }
        if type == ObjectIdentifier(Bool.self) { return (value as! Bool) ? "true" : "false" }
        return nil
    }
}
