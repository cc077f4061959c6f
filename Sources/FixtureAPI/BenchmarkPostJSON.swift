import BoardArchive

/// A post's JSON exactly as `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` writes it (the form the crawler
/// stores as `raw` and hashes into `contentHash`), about ten times faster.
///
/// Keys in byte order; strings escape `"`, `\`, and control characters (`\b \f \n \r \t`, else `\u00xx` in lower-case
/// hex), and nothing else. `BenchmarkArchiveTests` checks the output against `JSONEncoder` byte for byte.
enum BenchmarkPostJSON {
    static func encode(_ post: Post) -> String {
        var out = ""
        out.reserveCapacity(post.contents.utf8.count + post.title.utf8.count + 420)
        out += "{\"attachmentsCount\":"
        out += String(post.attachmentsCount)
        if let name = post.boardDisplayName {
            out += ",\"boardDisplayName\":"
            string(name, into: &out)
        }
        out += ",\"boardId\":" + String(post.boardId)
        out += ",\"commentsCount\":" + String(post.commentsCount)
        out += ",\"contents\":"
        string(post.contents, into: &out)
        out += ",\"createdDateTime\":\"" + ArchiveDate.format(post.createdDateTime) + "\""
        optional(post.hasAttachment, "hasAttachment", into: &out)
        optional(post.hasInlineImage, "hasInlineImage", into: &out)
        optional(post.hasReply, "hasReply", into: &out)
        out += ",\"isAnonymous\":" + (post.isAnonymous ? "true" : "false")
        optional(post.isNewPost, "isNewPost", into: &out)
        optional(post.isOwner, "isOwner", into: &out)
        out += ",\"parentPostId\":" + (post.parentPostId.map { String($0) } ?? "null")
        out += ",\"postId\":" + String(post.postId)
        out += ",\"postType\":"
        string(post.unknownPostType ?? post.postType.rawValue, into: &out)
        out += ",\"title\":"
        string(post.title, into: &out)
        out += ",\"viewCount\":" + String(post.viewCount)
        out += ",\"writer\":{\"displayName\":"
        string(post.writer.displayName, into: &out)
        if let email = post.writer.emailAddress {
            out += ",\"emailAddress\":"
            string(email, into: &out)
        }
        if let image = post.writer.profileImage {
            out += ",\"profileImage\":"
            string(image, into: &out)
        }
        out += "}}"
        return out
    }

    private static func optional(_ value: Bool?, _ key: String, into out: inout String) {
        guard let value else { return }
        out += ",\"" + key + "\":" + (value ? "true" : "false")
    }

    /// Appends `text` as a JSON string literal, copying unescaped runs of bytes at once.
    static func string(_ text: String, into out: inout String) {
        out += "\""
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                if runStart < index { out += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self) }
                out += escape(byte)
                runStart = index + 1
            }
            if runStart < bytes.count { out += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart...]), as: UTF8.self) }
        }
        out += "\""
    }

    private static func escape(_ byte: UInt8) -> String {
        switch byte {
        case 0x22: return "\\\""
        case 0x5C: return "\\\\"
        case 0x08: return "\\b"
        case 0x0C: return "\\f"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        default:
            let hex = String(byte, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }
}
