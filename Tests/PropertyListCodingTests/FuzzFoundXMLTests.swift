import Foundation
import PropertyListCoding
import Testing

/// Inputs the fuzzer found (issue 16), kept as regression tests: each once stopped the program.
struct FuzzFoundXMLTests {
    /// An attribute name holding a byte that is not UTF-8 made Foundation's XMLParser trap in its libxml2
    /// callback; the document is now refused with an error naming the byte.
    @Test(arguments: [
        Array(#"<?xml version="1.0"?><plist version="1.0"><dict a"#.utf8) + [0xFF] + Array(#"="1"/></plist>"#.utf8),
        Array(#"<plist><dic"#.utf8) + [0xC0, 0x80] + Array(#"t/></plist>"#.utf8),
        Array(#"<plist><string>"#.utf8) + [0xED, 0xA0, 0x80] + Array(#"</string></plist>"#.utf8),
        // An encoding name libxml2 does not know: it reads the bytes as they are.
        Array(#"<?xml version="1.0" encoding="UTF-<"?><plist ver"#.utf8) + [0xFF] + Array(#"ion="1.0"/>"#.utf8),
        Array(#"<?xml version="1.0" encoding=""#.utf8) + [0xD5] + Array(#"TF-8"?><plist ver"#.utf8) + [0xFF] + Array(#"ion="1.0"/>"#.utf8),
    ])
    func invalidUTF8IsRefused(document: [UInt8]) {
        let error = #expect(throws: PropertyListError.self) { try XMLPropertyListReader().read(document) }
        #expect(error?.description.contains("not valid UTF-8") == true)
    }

    /// Markup on which Foundation's XMLParser crashed (a null pointer in its libxml2 callbacks), found by mutating
    /// `.xccurrentversion` and `contents` files: refused with a reason.
    @Test(arguments: [
        "<?xm?><plist version=\"1.0\"><true/></plist>", "<plist><?pi?><true/></plist>",
        // libFuzzer: an XML declaration without a version is a processing instruction without data.
        "<?xml?>\n<!DOCTYPE p\u{1F}\0\0\0 PUBLIC \"-S\"/*>\n<string>\n</dict>\n</plist>", "<?xml ?><plist/>",
        "<!DOCTYPE plist [<!NOTATION n PUBLIC \"x\">]><plist><true/></plist>",
        "<!DOCTYPE plist [<!ATTLIST plist b CDATA #IMPLIED>]><plist><true/></plist>",
        "<!DOCTYPE plist [<!ENTITY e SYSTEM \"x\" NDATA n>]><plist><true/></plist>",
        "<!DOCTYPE plist [<!NOTATION n SYSTEM \"x\">]><plist><true/></plist>",
    ])
    func dangerousMarkupIsRefused(document: String) {
        let error = #expect(throws: PropertyListError.self) { try XMLPropertyListReader().read(Array(document.utf8)) }
        #expect(error?.description.contains("not accepted") == true)
    }

    @Test func ordinaryDocumentsStillParse() throws {
        let apple = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTD/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><!-- a <?comment?> --><key>k</key><string><![CDATA[<!ENTITY x>]]></string></dict></plist>
            """
        #expect(try XMLPropertyListReader().read(Array(apple.utf8)) == .dictionary(["k": .string("<!ENTITY x>")]))
    }

    @Test func otherDeclaredEncodingsStillParse() throws {
        let latin1 = Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><plist version="1.0"><string>caf"#.utf8) + [0xE9]
            + Array("</string></plist>".utf8)
        #expect(try XMLPropertyListReader().read(latin1) == .string("café"))
        #expect(XMLInputCheck.invalidUTF8Offset(in: Data("<a>é</a>".utf8)) == nil)
        #expect(XMLInputCheck.invalidUTF8Offset(in: Data([0x3C, 0x61, 0x3E, 0xF4, 0x90, 0x80, 0x80])) == 3)
    }
}
