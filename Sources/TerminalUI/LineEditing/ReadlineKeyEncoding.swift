/// The bytes an xterm-compatible terminal sends for a key, which readline's default key maps understand.
enum ReadlineKeyEncoding {
    static func bytes(for key: Key) -> [UInt8] {
        switch key {
        case .character(let character): return Array(String(character).utf8)
        case .enter: return [0x0D]
        case .tab: return [0x09]
        case .backspace: return [0x7F]
        case .escape: return [0x1B]
        case .delete: return csi("3~")
        case .insert: return csi("2~")
        case .up: return csi("A")
        case .down: return csi("B")
        case .right: return csi("C")
        case .left: return csi("D")
        case .home: return csi("H")
        case .end: return csi("F")
        case .pageUp: return csi("5~")
        case .pageDown: return csi("6~")
        case .backTab: return csi("Z")
        case .control(let letter):
            guard let value = letter.asciiValue else { return [] }
            switch value {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): return [value - 0x60]
            case UInt8(ascii: "@"): return [0]
            case UInt8(ascii: "[")...UInt8(ascii: "_"): return [value - 0x40]
            default: return []
            }
        case .function, .resize, .mouse: return []
        }
    }

    private static func csi(_ final: String) -> [UInt8] { [0x1B, UInt8(ascii: "[")] + Array(final.utf8) }
}
