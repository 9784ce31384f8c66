/// A decoded input event: a key press, a terminal resize, or a mouse event.
public enum Key: Hashable, Sendable {
    /// A printable grapheme cluster (never a control character).
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case insert, delete
    case enter, escape, backspace, tab
    /// Shift-Tab.
    case backTab
    /// F1 is `function(1)`.
    case function(Int)
    /// Ctrl with a letter, lowercased: Ctrl-A is `control("a")`. Ctrl-I, Ctrl-M and Ctrl-H arrive as `tab`,
    /// `enter` and `backspace`, as terminals cannot tell them apart.
    case control(Character)
    /// The terminal changed size; query `Terminal.size`.
    case resize
    case mouse(MouseEvent)

    /// The key for a control byte (0x00–0x1F, 0x7F), as sent by terminals in cbreak mode.
    public init?(controlByte byte: UInt32) {
        switch byte {
        case 0x09: self = .tab
        case 0x0A, 0x0D: self = .enter
        case 0x1B: self = .escape
        case 0x08, 0x7F: self = .backspace
        case 0x01...0x1A: self = .control(Character(Unicode.Scalar(byte + 0x60)!))
        case 0x00: self = .control("@")
        case 0x1C...0x1F: self = .control(Character(Unicode.Scalar(byte + 0x40)!))
        default: return nil
        }
    }

    /// The key for a scalar read from the terminal: a control key for control bytes, nil for other unprintable
    /// scalars (C1 controls), a character otherwise.
    public init?(scalar: Unicode.Scalar) {
        if let control = Key(controlByte: scalar.value) {
            self = control
        } else if (0x80...0x9F).contains(scalar.value) {
            return nil
        } else {
            self = .character(Character(scalar))
        }
    }
}

/// A mouse event at a cell.
public struct MouseEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case press, release, click, doubleClick, rightClick, wheelUp, wheelDown
    }

    public var kind: Kind
    public var position: Point

    public init(_ kind: Kind, at position: Point) {
        self.kind = kind
        self.position = position
    }
}
