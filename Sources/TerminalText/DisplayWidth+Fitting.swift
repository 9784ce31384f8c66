extension DisplayWidth {
    /// The longest prefix of `text` that fits in `columns`, never splitting a grapheme cluster, and its width.
    public static func prefix(of text: String, fittingIn columns: Int) -> (text: Substring, width: Int) {
        var width = 0
        var end = text.startIndex
        for index in text.indices {
            let next = width + of(text[index])
            if next > columns { break }
            width = next
            end = text.index(after: index)
        }
        return (text[..<end], width)
    }

    /// `text` shortened to at most `columns` columns. When it does not fit, the end is replaced by `ellipsis`
    /// (pass nil to cut without one). A wide cluster that would straddle the edge is left out, so the result can
    /// be one column narrower than `columns`.
    public static func truncate(_ text: String, toWidth columns: Int, ellipsis: Character? = "…") -> String {
        guard columns > 0 else { return "" }
        if of(text) <= columns { return text }
        guard let ellipsis else { return String(prefix(of: text, fittingIn: columns).text) }
        let ellipsisWidth = of(ellipsis)
        guard ellipsisWidth <= columns else { return "" }
        return String(prefix(of: text, fittingIn: columns - ellipsisWidth).text) + String(ellipsis)
    }

    /// `text` truncated if needed and padded with spaces to exactly `columns` columns, so that columns of a table
    /// line up whatever wide or combining characters they hold.
    public static func pad(_ text: String, toWidth columns: Int, alignment: Alignment = .left,
                           ellipsis: Character? = "…") -> String {
        guard columns > 0 else { return "" }
        let fitted = truncate(text, toWidth: columns, ellipsis: ellipsis)
        let gap = columns - of(fitted)
        switch alignment {
        case .left:
            return fitted + String(repeating: " ", count: gap)
        case .right:
            return String(repeating: " ", count: gap) + fitted
        case .center:
            let left = gap / 2
            return String(repeating: " ", count: left) + fitted + String(repeating: " ", count: gap - left)
        }
    }
}
