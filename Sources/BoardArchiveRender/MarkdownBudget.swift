/// A linear pre-scan of a post body that bounds what cmark-gfm can be made to do with it.
///
/// Debian 12's cmark-gfm (0.29.0.gfm.6) predates upstream's fixes for several inputs whose parse time grows with the
/// square of their size (docs/hostile-posts.md lists the shapes and their measured times). Rather than recognising
/// strings, the scan measures the quantities every such shape needs in bulk, in one pass over the UTF-8 bytes:
///
/// - **inline work**: an upper bound, in scanned bytes, of what the inline parser does beyond one pass. Inline parsing
///   runs per paragraph, and a paragraph never crosses a blank line, so the body is cut into *chunks* at blank lines.
///   In each chunk, every `<?` or `<!` (processing instruction, declaration, CDATA, comment) may be scanned to the end
///   of the chunk for its terminator; every `]` may walk the brackets still open before it (a link deactivates them
///   all); brackets left open at the end may each meet every other. The bound is compared with an allowance that grows
///   with the body's size (``Limits/inlineWorkPerByte``), so what passes costs at most a fixed time per byte.
/// - **nesting**: the block quotes and list items opened on one line. Every line is matched against each container
///   still open, so deep nesting followed by many lines costs their product.
/// - **table width and padding**: the columns of a table's delimiter row (parsing and rendering a row walk its cells once
///   per cell), and the empty cells rows shorter than their table are padded with (a wide header over many one-cell
///   rows makes output, and time, grow with the product).
///
/// A body over any limit is rendered as plain text (``PlainTextBody``) instead of Markdown; the limits leave ordinary
/// posts, however long, well inside them.
package struct MarkdownBudget: Sendable, Equatable {
    /// The limits a body must stay within to be rendered as Markdown.
    package struct Limits: Sendable, Equatable {
        /// Inline work allowed for every byte of the body, in scanned bytes. Default 256.
        var inlineWorkPerByte = 256
        /// Inline work allowed to any body, however short, in scanned bytes. Default 2^24 (about 10 ms).
        var inlineWorkFloor = 1 << 24
        /// Block quotes and list items nested on one line. Default 32.
        var nesting = 32
        /// Columns of one table. Default 128.
        var tableColumns = 128
        /// Empty cells padding short table rows, allowed for every byte of the body. Default 1/2.
        var paddedCellsPerTwoBytes = 1
        /// Empty padding cells allowed to any body. Default 2^16.
        var paddedCellsFloor = 1 << 16
        /// The body's size in UTF-8 bytes. Default 16 MiB.
        package var bytes = 16 << 20

        /// The defaults.
        init() {}
    }

    /// Why a body is not rendered as Markdown.
    package enum Excess: Sendable, Equatable, CustomStringConvertible {
        case tooLarge(bytes: Int, limit: Int)
        case nestingTooDeep(depth: Int, limit: Int)
        case tableTooWide(columns: Int, limit: Int)
        case tooMuchTablePadding(cells: Int, limit: Int)
        case inlineWorkTooHigh(work: Int, limit: Int)

        /// One phrase for the build's warning.
        package var description: String {
            switch self {
            case .tooLarge(let bytes, let limit): "the body is \(bytes) bytes, over the \(limit)-byte limit"
            case .nestingTooDeep(let depth, let limit): "block quotes and lists nest \(depth) deep, over the limit of \(limit)"
            case .tableTooWide(let columns, let limit): "a table has \(columns) columns, over the limit of \(limit)"
            case .tooMuchTablePadding(let cells, let limit): "short table rows would be padded with \(cells) empty cells, over the limit of \(limit)"
            case .inlineWorkTooHigh(let work, let limit):
                "unclosed brackets, HTML openers or autolink candidates would cost the parser about \(work) steps, over the limit of \(limit) for its size"
            }
        }
    }

    /// What the scan measured.
    struct Measure: Sendable, Equatable {
        /// The body's size in UTF-8 bytes.
        var bytes = 0
        /// The bound of inline work beyond one pass, in scanned bytes.
        var inlineWork = 0
        /// The deepest nesting of block quotes and list items on one line.
        var nesting = 0
        /// The widest table's columns.
        var tableColumns = 0
        /// The empty cells padding table rows shorter than their table.
        var paddedCells = 0
    }

    /// The limits checked.
    package var limits = Limits()

    /// Why `markdown` is over the limits, or nil when cmark-gfm may render it.
    func excess(of markdown: String) -> Excess? {
        var text = markdown
        let measure = text.withUTF8 { Self.measure($0) }
        return excess(of: measure)
    }

    /// Why a body with `measure` is over the limits, or nil.
    func excess(of measure: Measure) -> Excess? {
        if measure.bytes > limits.bytes { return .tooLarge(bytes: measure.bytes, limit: limits.bytes) }
        if measure.nesting > limits.nesting { return .nestingTooDeep(depth: measure.nesting, limit: limits.nesting) }
        if measure.tableColumns > limits.tableColumns { return .tableTooWide(columns: measure.tableColumns, limit: limits.tableColumns) }
        let padding = limits.paddedCellsFloor + limits.paddedCellsPerTwoBytes * measure.bytes / 2
        if measure.paddedCells > padding { return .tooMuchTablePadding(cells: measure.paddedCells, limit: padding) }
        let allowed = inlineWorkAllowed(bytes: measure.bytes)
        if measure.inlineWork > allowed { return .inlineWorkTooHigh(work: measure.inlineWork, limit: allowed) }
        return nil
    }

    /// The inline work a body of `bytes` may cost.
    func inlineWorkAllowed(bytes: Int) -> Int {
        limits.inlineWorkFloor + limits.inlineWorkPerByte * bytes
    }

    /// Measures `bytes` in one pass (see ``MarkdownBudget``).
    static func measure(_ bytes: UnsafeBufferPointer<UInt8>) -> Measure {
        var scan = MarkdownScan()
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A, bytes[lineEnd] != 0x0D { lineEnd += 1 }
            scan.line(UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd]), at: lineStart)
            // `\r\n`, `\r` and `\n` each end a line, as cmark reads them.
            lineStart = lineEnd + (lineEnd + 1 < bytes.count && bytes[lineEnd] == 0x0D && bytes[lineEnd + 1] == 0x0A ? 2 : 1)
        }
        scan.endChunk(at: bytes.count)
        var measure = scan.measure
        measure.bytes = bytes.count
        return measure
    }
}
